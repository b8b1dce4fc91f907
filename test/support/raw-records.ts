import { canonicalAddress, isZeroAddress } from '../../src/lib/address';
import type { SampleService } from '../../src/server/sample-service';

export type RawRecord = Record<string, string>;

/** The service's records of a contract, walked directly, as the service sends them. */
export async function rawRecords(service: Pick<SampleService, 'fetch'>, contract: string) {
  const records: RawRecord[] = [];
  let cursor: string | null | undefined = null;
  do {
    const response = await service.fetch(
      `/v1/events/${contract}?limit=5000${cursor ? `&cursor=${cursor}` : ''}`,
      { headers: { 'x-api-key': 'k' } },
    );
    const body = (await response.json()) as { result: RawRecord[]; cursor?: string | null };
    records.push(...body.result);
    cursor = body.cursor;
  } while (cursor);
  return records;
}

/**
 * Each token's latest transfer up to a moment, from the records alone: in the deployed
 * profile every change of hands has its transfer record (a sale's too), so its receiver
 * holds the token (a mint first and a burn last at one time), nobody after a burn.
 */
export function latestTransfers(records: RawRecord[], asOf: number): Map<string, RawRecord> {
  const rank = (r: RawRecord) =>
    isZeroAddress(r.from_address!) ? 0 : isZeroAddress(r.to_address!) ? 2 : 1;
  const latest = new Map<string, RawRecord>();
  for (const record of records) {
    if (record.event_type !== 'transfer' || Number(record.timestamp) > asOf) continue;
    const held = latest.get(record.token_id!);
    const later =
      !held ||
      Number(record.timestamp) > Number(held.timestamp) ||
      (Number(record.timestamp) === Number(held.timestamp) && rank(record) > rank(held));
    if (later) latest.set(record.token_id!, record);
  }
  return latest;
}

export interface ExpectedHolder {
  owner: string;
  tokens: number;
  since: number;
}

/**
 * Holders from the records alone, in the holders answer's order (largest first), each
 * with the earliest moment it got one of the tokens it holds (a token's latest transfer).
 */
export function holdersFrom(records: RawRecord[], asOf: number): ExpectedHolder[] {
  const owners = new Map<string, ExpectedHolder>();
  for (const record of latestTransfers(records, asOf).values()) {
    if (isZeroAddress(record.to_address!)) continue;
    const owner = canonicalAddress(record.to_address!)!;
    const entry = owners.get(owner) ?? { owner, tokens: 0, since: Infinity };
    entry.tokens += 1;
    // Since when it holds: the earliest of the moments it got a token it still holds.
    entry.since = Math.min(entry.since, Number(record.timestamp));
    owners.set(owner, entry);
  }
  // Largest first, then by address descending: the holders answer's order.
  return [...owners.values()].sort(
    (a, b) => b.tokens - a.tokens || (a.owner > b.owner ? -1 : a.owner < b.owner ? 1 : 0),
  );
}

/** Starknet's ETH contract, written out here so the tests' figures do not borrow the app's. */
export const ETH_ADDRESS = '0x049d36570d4e46f48e99674bd3fcc84644ddd6b96f7c741b1562b82f9e004dc7';

/** The currency a sale counts in: the one it names, or ETH when it names none. */
export const countedCurrency = (named: string | undefined) => named ?? ETH_ADDRESS;
/** A change of hands as the records say it: its transfer record, and its sale's when sold. */
export interface RawChange {
  token: string;
  from: string;
  to: string;
  ts: number;
  transfer: RawRecord;
  sale: RawRecord | undefined;
}

/**
 * The changes of hands of the deployed profile's records: each is a transfer record, and
 * a sale's twin (same transaction and token) names its price. Who sold and who bought is
 * the transfer's from and to.
 */
export function changesOfHands(records: RawRecord[]): RawChange[] {
  const twin = (r: RawRecord) => `${r.transaction_hash}|${r.token_id}`;
  const sales = new Map(
    records.filter((r) => String(r.event_type) === 'sale').map((r) => [twin(r), r]),
  );
  return records
    .filter((r) => String(r.event_type) !== 'sale')
    .map((r) => ({
      token: r.token_id!,
      from: r.from_address!,
      to: r.to_address!,
      ts: Number(r.timestamp),
      transfer: r,
      sale: sales.get(twin(r)),
    }));
}
