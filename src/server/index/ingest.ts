import type pg from 'pg';
import { normaliseContract, normaliseEvent } from '../../lib/normalise';
import type { TokenEvent } from '../../lib/token-event';
import { recordText, type Chunk } from '../store/engine';
import { changeRows, type ChangeRow } from './change-row';
import { contractIds, type ContractIds } from './contract-ids';
import { parseListPath } from './list-path';

/**
 * Ingest: the records the event store commits become the index's rows, in the same
 * transaction (a crash loses no committed page and doubles nothing). Called by the
 * PostgreSQL engine's `onCommit` for every page it stores: the contracts list updates
 * `idx_contracts`; a contract's or a token's events become changes of hands, then the
 * tokens and hours they touched are computed again from `idx_changes`, so every figure
 * is what the stored rows say, however often or in whatever order records arrive.
 */
export interface IngestStats {
  records: number;
  skipped: number;
  changes: number;
}

const INGEST_LOCK = 0x1de;
const HOUR = 3_600;

const hex = (value: string | null) => (value === null ? null : value.slice(2));

// Rows go in as one JSON array of arrays (positional): PostgreSQL reads that faster than
// twenty parameter arrays, and Node writes it with one JSON.stringify.
const UPSERT_CHANGES = `
INSERT INTO idx_changes AS c (key, contract_id, tx, token_id, from_addr, to_addr, ts, base_kind,
  label, event_id, has_transfer, has_sale, price, price_text, currency, quantity, marketplace,
  marketplace_addr, seller, buyer)
SELECT decode(r->>0, 'hex'), $2::integer, decode(r->>1, 'hex'), (r->>2)::numeric,
  decode(r->>3, 'hex'), decode(r->>4, 'hex'), (r->>5)::bigint, (r->>6)::smallint, r->>7, r->>8,
  (r->>9)::boolean, (r->>10)::boolean, (r->>11)::numeric, r->>12, decode(r->>13, 'hex'),
  (r->>14)::numeric, r->>15, decode(r->>16, 'hex'), decode(r->>17, 'hex'), decode(r->>18, 'hex')
FROM jsonb_array_elements($1::jsonb) AS r
ON CONFLICT (key) DO UPDATE SET
  from_addr = CASE WHEN excluded.has_transfer OR NOT c.has_transfer THEN excluded.from_addr ELSE c.from_addr END,
  to_addr = CASE WHEN excluded.has_transfer OR NOT c.has_transfer THEN excluded.to_addr ELSE c.to_addr END,
  ts = CASE WHEN excluded.has_transfer OR NOT c.has_transfer THEN excluded.ts ELSE c.ts END,
  base_kind = CASE WHEN excluded.has_transfer OR NOT c.has_transfer THEN excluded.base_kind ELSE c.base_kind END,
  label = CASE WHEN excluded.has_transfer OR NOT c.has_transfer THEN excluded.label ELSE c.label END,
  event_id = CASE WHEN excluded.has_transfer OR NOT c.has_transfer THEN excluded.event_id ELSE c.event_id END,
  has_transfer = c.has_transfer OR excluded.has_transfer,
  has_sale = c.has_sale OR excluded.has_sale,
  price = CASE WHEN excluded.has_sale THEN excluded.price ELSE c.price END,
  price_text = CASE WHEN excluded.has_sale THEN excluded.price_text ELSE c.price_text END,
  currency = CASE WHEN excluded.has_sale THEN excluded.currency ELSE c.currency END,
  quantity = CASE WHEN excluded.has_sale THEN excluded.quantity ELSE c.quantity END,
  marketplace = CASE WHEN excluded.has_sale THEN excluded.marketplace ELSE c.marketplace END,
  marketplace_addr = CASE WHEN excluded.has_sale THEN excluded.marketplace_addr ELSE c.marketplace_addr END,
  seller = CASE WHEN excluded.has_sale THEN excluded.seller ELSE c.seller END,
  buyer = CASE WHEN excluded.has_sale THEN excluded.buyer ELSE c.buyer END
WHERE (excluded.has_transfer AND NOT c.has_transfer) OR (excluded.has_sale AND NOT c.has_sale)
RETURNING id, token_id::text, ts, kind, to_addr, xmax = 0 AS inserted`;

// A token's latest change decides its holder: latest in time; at one time a mint comes
// before and a burn after anything else (`rank`), then the order the rows were stored in.
export const LATEST_FIRST = `ts DESC, rank DESC, id DESC`;

// The rank of a change among those of one token at one time (see LATEST_FIRST).
const rankOf = (kind: number) => (kind === 0 ? 0 : kind === 3 ? 2 : 1);

// Each token's state moved on by the batch's changes of it: the latest change wins when
// it is later than the stored one (the same row again, joined with its twin, too); the
// first time, whether it was minted and how many changes it has only ever grow.
const UPSERT_TOKENS = `
INSERT INTO idx_tokens AS t (contract_id, token_id, owner, since, rank, last_id, first_ts, minted,
  burned, changes)
SELECT $1, (r->>0)::numeric, decode(r->>1, 'hex'), (r->>2)::bigint, (r->>3)::smallint,
  (r->>4)::bigint, (r->>5)::bigint, (r->>6)::boolean, (r->>7)::boolean, (r->>8)::integer
FROM jsonb_array_elements($2::jsonb) AS r
ON CONFLICT (contract_id, token_id) DO UPDATE SET
  owner = CASE WHEN (excluded.since, excluded.rank, excluded.last_id) >= (t.since, t.rank, t.last_id)
    THEN excluded.owner ELSE t.owner END,
  burned = CASE WHEN (excluded.since, excluded.rank, excluded.last_id) >= (t.since, t.rank, t.last_id)
    THEN excluded.burned ELSE t.burned END,
  since = greatest(t.since, excluded.since) ,
  rank = CASE WHEN (excluded.since, excluded.rank, excluded.last_id) >= (t.since, t.rank, t.last_id)
    THEN excluded.rank ELSE t.rank END,
  last_id = CASE WHEN (excluded.since, excluded.rank, excluded.last_id) >= (t.since, t.rank, t.last_id)
    THEN excluded.last_id ELSE t.last_id END,
  first_ts = least(t.first_ts, excluded.first_ts),
  minted = t.minted OR excluded.minted,
  changes = t.changes + excluded.changes`;

interface Touched {
  id: string;
  token_id: string;
  ts: string;
  kind: number;
  to_addr: Buffer;
  inserted: boolean;
}

/** Per token, the batch's latest change and what the batch adds to its counts. */
function tokenStates(touched: readonly Touched[]) {
  const states = new Map<
    string,
    { latest: Touched; ts: number; rank: number; first: number; minted: boolean; added: number }
  >();
  for (const row of touched) {
    const ts = Number(row.ts);
    const rank = rankOf(row.kind);
    const state = states.get(row.token_id);
    if (!state) {
      states.set(row.token_id, {
        latest: row,
        ts,
        rank,
        first: ts,
        minted: row.kind === 0,
        added: row.inserted ? 1 : 0,
      });
      continue;
    }
    const later =
      ts !== state.ts
        ? ts > state.ts
        : rank !== state.rank
          ? rank > state.rank
          : BigInt(row.id) > BigInt(state.latest.id);
    if (later) Object.assign(state, { latest: row, ts, rank });
    state.first = Math.min(state.first, ts);
    state.minted ||= row.kind === 0;
    state.added += row.inserted ? 1 : 0;
  }
  return [...states.entries()];
}

const DROP_HOURS = `DELETE FROM idx_hourly WHERE contract_id = $1 AND hour = ANY($2::integer[])`;
const RECOMPUTE_HOURS = `
INSERT INTO idx_hourly (contract_id, hour, kind, marketplace, currency, events, volume)
SELECT $1, (ts / ${HOUR})::integer, kind, coalesce(marketplace, ''), coalesce(currency, '\\x'::bytea),
  count(*), coalesce(sum(price), 0)
FROM idx_changes
WHERE contract_id = $1 AND ts >= $3 AND ts < $4 AND (ts / ${HOUR})::integer = ANY($2::integer[])
GROUP BY 2, 3, 4, 5`;

export function createIngest(pool: pg.Pool) {
  const ids: ContractIds = contractIds(pool);

  /** Writes the change rows of one contract; returns how many rows were new or joined. */
  async function writeChanges(client: pg.PoolClient, contractId: number, rows: ChangeRow[]) {
    if (rows.length === 0) return 0;
    const tuples = rows.map((row) => [
      row.key.toString('hex'),
      hex(row.tx || '0x'),
      row.tokenId,
      hex(row.from),
      hex(row.to),
      row.ts,
      row.baseKind,
      row.label,
      row.eventId,
      row.hasTransfer,
      row.hasSale,
      row.price,
      row.priceText,
      row.hasSale ? (hex(row.currency) ?? '') : null,
      row.quantity,
      row.marketplace,
      hex(row.marketplaceAddress),
      hex(row.seller),
      hex(row.buyer),
    ]);
    const { rows: touched } = await client.query<Touched>(UPSERT_CHANGES, [
      JSON.stringify(tuples),
      contractId,
    ]);
    if (touched.length === 0) return 0;
    const states = tokenStates(touched);
    await client.query(UPSERT_TOKENS, [
      contractId,
      JSON.stringify(
        states.map(([id, state]) => [
          id,
          state.latest.to_addr.toString('hex'),
          state.ts,
          state.rank,
          state.latest.id,
          state.first,
          state.minted,
          state.latest.kind === 3,
          state.added,
        ]),
      ),
    ]);
    const times = touched.map((row) => Number(row.ts));
    const hours = [...new Set(times.map((ts) => Math.floor(ts / HOUR)))];

    const low = Math.min(...hours) * HOUR;
    const high = (Math.max(...hours) + 1) * HOUR;
    await client.query(DROP_HOURS, [contractId, hours]);
    await client.query(RECOMPUTE_HOURS, [contractId, hours, low, high]);
    return touched.length;
  }

  async function ingestEvents(
    client: pg.PoolClient,
    contract: string,
    texts: string[],
  ): Promise<IngestStats> {
    const events: TokenEvent[] = [];
    let skipped = 0;
    for (const text of texts) {
      const event = normaliseEvent(JSON.parse(text), contract);
      if (event) events.push(event);
      else skipped += 1;
    }
    const byContract = new Map<string, TokenEvent[]>();
    for (const event of events) {
      const list = byContract.get(event.contractAddress) ?? [];
      list.push(event);
      byContract.set(event.contractAddress, list);
    }
    let changes = 0;
    for (const [address, list] of byContract) {
      const contractId = await ids.idOf(address);
      await client.query('SELECT pg_advisory_xact_lock($1, $2)', [INGEST_LOCK, contractId]);
      // A commit lost to a crash of PostgreSQL itself is read again from the upstream;
      // the store's own pages in this transaction are bound by the same rule.
      await client.query('SET LOCAL synchronous_commit = off');
      changes += await writeChanges(client, contractId, changeRows(list));
      let oldest = Infinity;
      let newest = -Infinity;
      for (const event of list) {
        if (event.timestamp < oldest) oldest = event.timestamp;
        if (event.timestamp > newest) newest = event.timestamp;
      }
      await client.query(
        `UPDATE idx_contracts SET oldest_ts = least(coalesce(oldest_ts, $2), $2),
           newest_ts = greatest(coalesce(newest_ts, $3), $3) WHERE id = $1`,
        [contractId, oldest, newest],
      );
    }
    return { records: texts.length, skipped, changes };
  }

  async function ingestContracts(client: pg.PoolClient, texts: string[]): Promise<IngestStats> {
    let skipped = 0;
    const contracts = [];
    for (const text of texts) {
      const contract = normaliseContract(JSON.parse(text));
      if (contract) contracts.push(contract);
      else skipped += 1;
    }
    if (contracts.length > 0) {
      await client.query(
        `INSERT INTO idx_contracts (address, name, symbol, image, contract_type, listed)
         SELECT a, n, s, i, t, true FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[])
           AS u(a, n, s, i, t)
         ON CONFLICT (address) DO UPDATE SET name = excluded.name, symbol = excluded.symbol,
           image = excluded.image, contract_type = excluded.contract_type, listed = true`,
        [
          contracts.map((contract) => contract.address),
          contracts.map((contract) => contract.name ?? null),
          contracts.map((contract) => contract.symbol ?? null),
          contracts.map((contract) => contract.image ?? null),
          contracts.map((contract) => contract.type ?? null),
        ],
      );
    }
    return { records: texts.length, skipped, changes: 0 };
  }

  return {
    contractIds: ids,
    /**
     * The PostgreSQL engine's commit hook: `chunks` are the records just stored for
     * `list`; `complete` says the list is now stored to its end.
     */
    async onCommit(
      client: pg.PoolClient,
      list: string,
      chunks: readonly Chunk[],
      meta: { complete: boolean; first: number; next: number },
    ): Promise<IngestStats | undefined> {
      const target = parseListPath(list);
      if (!target) return undefined;
      const texts: string[] = [];
      for (const chunk of chunks) {
        for (let index = 0; index < chunk.ends.length; index++) {
          texts.push(recordText(chunk, index));
        }
      }
      if (target.kind === 'contracts') return ingestContracts(client, texts);
      const stats = await ingestEvents(client, target.contract, texts);
      if (target.kind === 'contract-events') {
        const contractId = await ids.idOf(target.contract);
        await client.query(
          `UPDATE idx_contracts SET complete = complete OR $2, records = $3 WHERE id = $1`,
          [contractId, meta.complete, meta.next - meta.first],
        );
      }
      return stats;
    },
  };
}

export type Ingest = ReturnType<typeof createIngest>;
