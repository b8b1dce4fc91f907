import { expect } from 'vitest';
import { tokenIdToHex } from '../../../src/lib/token-id';
import {
  createSampleService,
  generateDataset,
  PAGE_BYTE_CAP,
  PROFILES,
  type Dataset,
  type DatasetOptions,
  type EventSource,
  type Profile,
  type SampleService,
  type Token,
  type TokenEvent,
} from '../../../src/server/sample-service';

export const API_KEY = 'test-key';

const datasets = new Map<string, Dataset>();

/** Datasets are immutable, so tests in one file share them. */
export function dataset(options: DatasetOptions): Dataset {
  const key = JSON.stringify(options);
  let found = datasets.get(key);
  if (!found) {
    found = generateDataset(options);
    datasets.set(key, found);
  }
  return found;
}

export const SMALL = { seed: 3, contracts: 8, events: 2_000 } satisfies DatasetOptions;

/** One service per profile over the same data. */
export function services(data: Dataset): Record<Profile, SampleService> {
  const [documented, deployed] = PROFILES.map((profile) =>
    createSampleService({ apiKey: API_KEY, profile, dataset: data }),
  );
  if (!documented || !deployed) throw new Error('two profiles expected');
  return { documented, deployed };
}

export type Json = Record<string, unknown>;

export async function get(
  service: SampleService<EventSource>,
  path: string,
  key: string | null = API_KEY,
): Promise<{ status: number; text: string; headers: Headers }> {
  const response = await service.fetch(path, {
    headers: key === null ? {} : { 'x-api-key': key },
  });
  return { status: response.status, text: await response.text(), headers: response.headers };
}

export interface Walk {
  items: Json[];
  pages: { bytes: number; count: number; hasCursor: boolean; body: Json }[];
}

/** Follows cursors to the end of a list, checking what every page must satisfy. */
export async function walk(
  service: SampleService<EventSource>,
  path: string,
  limit?: number,
): Promise<Walk> {
  const result: Walk = { items: [], pages: [] };
  let cursor: string | undefined;
  for (;;) {
    const query = new URLSearchParams();
    if (limit !== undefined) query.set('limit', String(limit));
    if (cursor !== undefined) query.set('cursor', cursor);
    const { status, text } = await get(service, `${path}?${query}`);
    expect(status, text).toBe(200);
    const body = JSON.parse(text) as Json;
    const items = (body.result ?? []) as Json[];
    const bytes = Buffer.byteLength(text);
    expect(bytes).toBeLessThanOrEqual(PAGE_BYTE_CAP);
    expect(items.length).toBeLessThanOrEqual(limit ?? 100);
    const hasCursor = typeof body.cursor === 'string';
    result.pages.push({ bytes, count: items.length, hasCursor, body });
    result.items.push(...items);
    if (!hasCursor) {
      // The end: null in the documented profile, absent in the deployed one.
      expect(body.cursor).toBe(service.profile === 'documented' ? null : undefined);
      return result;
    }
    expect(result.pages.length, `${path}: too many pages`).toBeLessThan(5_000);
    cursor = body.cursor as string;
  }
}

/** Events are unique by transaction and token (a batch mint is one transaction, many tokens). */
export const eventKey = (item: Json): string =>
  `${String(item.transaction_hash)}:${String(item.token_id)}`;

/**
 * Records are unique by event and kind of record: a deployed sale is two records of one
 * event, its transfer and the marketplace's sale record.
 */
export const recordKey = (item: Json): string =>
  `${eventKey(item)}:${item.event_type === 'sale' ? 'sale' : 'move'}`;

const key = (event: TokenEvent, part: 'move' | 'sale'): string =>
  `${event.transactionHash}:${event.token.id}:${part}`;

/** The records of an event a profile serves, in the order a contract's list gives them. */
function eventRecords(event: TokenEvent, profile: Profile): string[] {
  if (profile === 'documented' || event.sale === null) {
    return [key(event, event.kind === 'sale' ? 'sale' : 'move')];
  }
  const twins = [key(event, 'move'), key(event, 'sale')];
  return event.sale.saleFirst ? twins.reverse() : twins;
}

/** Rows of a contract's list, newest first, computed independently of the store. */
export interface ExpectedRow {
  key: string;
  /** Read by the deployed service, never served. */
  burn: boolean;
}

export function contractRowsInOrder(
  data: EventSource,
  contractIndex: number,
  profile: Profile,
): ExpectedRow[] {
  const contract = data.contracts[contractIndex];
  if (!contract) return [];
  const seqs = [
    ...Array.from({ length: contract.eventCount }, (_, n) => contract.firstEvent + n),
    ...data.addedEvents(contract),
  ];
  return seqs
    .map((seq) => data.event(seq))
    .sort((a, b) => b.timestamp - a.timestamp || b.seq - a.seq)
    .flatMap((event) =>
      eventRecords(event, profile).map((record) => ({
        key: record,
        burn: profile === 'deployed' && event.kind === 'burn',
      })),
    );
}

/** The records a contract's list serves, newest first. */
export const contractRecordsInOrder = (
  data: EventSource,
  contractIndex: number,
  profile: Profile,
): string[] =>
  contractRowsInOrder(data, contractIndex, profile)
    .filter((row) => !row.burn)
    .map((row) => row.key);

/**
 * A token's records in event id order: a deployed sale record's event id is the token's
 * own hex id, so those come together, in the order they happened.
 */
export function tokenRecordsInOrder(data: EventSource, token: Token, profile: Profile): string[] {
  return Array.from(data.tokenEvents(token), (seq) => data.event(seq))
    .flatMap((event) =>
      eventRecords(event, profile).map((record) => ({
        record,
        seq: event.seq,
        eventId:
          record.endsWith(':sale') && profile === 'deployed'
            ? tokenIdToHex(token.id)
            : event.eventId,
      })),
    )
    .sort((a, b) => (a.eventId < b.eventId ? -1 : a.eventId > b.eventId ? 1 : a.seq - b.seq))
    .map((entry) => entry.record);
}

export const eventsPath = (address: string, tokenId?: string): string =>
  tokenId === undefined ? `/v1/events/${address}` : `/v1/events/${address}/${tokenId}`;

/** A page's body without its cursor: what two requests of one page have in common. */
export const withoutCursor = (text: string): Json => {
  const { cursor: _cursor, ...rest } = JSON.parse(text) as Json;
  return rest;
};
