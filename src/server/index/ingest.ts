import type pg from 'pg';
import { normaliseContract, normaliseEvent } from '../../lib/normalise';
import type { Contract } from '../../lib/contract';
import type { TokenEvent } from '../../lib/token-event';
import { changeRows, type ChangeRow } from './change-row';
import { contractIds, type ContractIds } from './contract-ids';
import { hourlyRows } from './hourly';
import { parseListPath } from './list-path';
import { mintFactsOf } from './mint-facts';
import { WASH_WINDOW_SECONDS, washFlagsOf } from './wash-flags';
import { ANY_WEBHOOK, enqueueDeliveries, holdersNow, watchersOf } from '../webhooks/outbox';
import { HOUR } from '../../lib/utc';

/**
 * Ingest: the records the record log commits become the index's rows, in the same
 * transaction (a crash loses no committed page and doubles nothing). Called by the
 * log's `onCommit` for every page it stores: the contracts list updates
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
const TAKE_LOCK = `pg_advisory_xact_lock(${INGEST_LOCK}, $1)`;

/**
 * Holds the contract's ingest lock until the transaction ends: one writer of a contract's
 * index rows at a time (ingest's pages, a rebuild), other contracts in parallel.
 */
export async function lockContract(client: pg.ClientBase, contractId: number): Promise<void> {
  await client.query(`SELECT ${TAKE_LOCK}`, [contractId]);
}

const hex = (value: string | null) => (value === null ? null : value.slice(2));

// The columns a change row is written to, and each one's value read from the row's tuple
// `r` ($2: the contract's number): rows go in as one JSON array of arrays (positional).
// PostgreSQL reads that faster than twenty parameter arrays, and Node writes it with one
// JSON.stringify. As `jsonb`: `json` is text, read again from its start for each field.
export const CHANGE_COLUMNS = `key, contract_id, tx, token_id, from_addr, to_addr, ts,
  base_kind, label, event_id, has_transfer, has_sale, price, price_text, currency, quantity,
  marketplace, marketplace_addr, seller, buyer, currency_assumed`;
export const CHANGE_TUPLES = `
SELECT decode(r->>0, 'hex'), $2::integer, decode(r->>1, 'hex'), (r->>2)::numeric,
  decode(r->>3, 'hex'), decode(r->>4, 'hex'), (r->>5)::bigint, (r->>6)::smallint, r->>7, r->>8,
  (r->>9)::boolean, (r->>10)::boolean, (r->>11)::numeric, r->>12, decode(r->>13, 'hex'),
  (r->>14)::numeric, r->>15, decode(r->>16, 'hex'), decode(r->>17, 'hex'), decode(r->>18, 'hex'),
  (r->>19)::boolean
FROM jsonb_array_elements($1::jsonb) AS r`;

// A row whose twin is stored joins it (the rule's SQL half; see change-row.ts).
const INSERT_CHANGES = `
INSERT INTO idx_changes AS c (${CHANGE_COLUMNS})${CHANGE_TUPLES}
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
  currency_assumed = CASE WHEN excluded.has_sale THEN excluded.currency_assumed ELSE c.currency_assumed END,
  quantity = CASE WHEN excluded.has_sale THEN excluded.quantity ELSE c.quantity END,
  marketplace = CASE WHEN excluded.has_sale THEN excluded.marketplace ELSE c.marketplace END,
  marketplace_addr = CASE WHEN excluded.has_sale THEN excluded.marketplace_addr ELSE c.marketplace_addr END,
  seller = CASE WHEN excluded.has_sale THEN excluded.seller ELSE c.seller END,
  buyer = CASE WHEN excluded.has_sale THEN excluded.buyer ELSE c.buyer END
WHERE (excluded.has_transfer AND NOT c.has_transfer) OR (excluded.has_sale AND NOT c.has_sale)`;
const UPSERT_CHANGES = `${INSERT_CHANGES}
RETURNING id, token_id::text, ts, kind, has_sale, to_addr, xmax = 0 AS inserted`;

/** Change rows as CHANGE_TUPLES reads them: one JSON array of positional arrays. */
export function changeTuples(rows: readonly ChangeRow[]): string {
  return JSON.stringify(
    rows.map((row) => [
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
      hex(row.currency),
      row.quantity,
      row.marketplace,
      hex(row.marketplaceAddress),
      hex(row.seller),
      hex(row.buyer),
      row.currencyAssumed,
    ]),
  );
}

/**
 * Stores change rows of one contract, each joined with its twin when that is stored
 * already: what ingest writes, without what it reads back (a rebuild computes the rest
 * from the whole contract's rows).
 */
export async function insertChanges(
  client: pg.ClientBase,
  contractId: number,
  rows: readonly ChangeRow[],
): Promise<void> {
  if (rows.length > 0) await client.query(INSERT_CHANGES, [changeTuples(rows), contractId]);
}

// A token's latest change decides its holder: latest in time; at one time a mint comes
// before and a burn after anything else (`rank`), then the order the rows were stored in.
export const LATEST_FIRST = `ts DESC, rank DESC, id DESC`;

// The rank of a change among those of one token at one time (see LATEST_FIRST).
const rankOf = (kind: number) => (kind === 0 ? 0 : kind === 3 ? 2 : 1);

// Each token's state moved on by the batch's changes of it: the latest change wins when
// it is later than the stored one (the same row again, joined with its twin, too); the
// first time, whether it was minted and how many changes it has only ever grow.
// Its mint facts are read again from the token's rows, its flags set (mint-facts.ts).
// It answers the tokens whose holder (or burn) changed, with the one before, so that each
// holder's count moves by the difference (UPSERT_OWNERS). `old` reads the statement's
// snapshot, from before `up` (no FOR UPDATE: that would skip rows `up` has just changed);
// the ingest lock keeps other writers of the contract out.
// Look-ups name the contract by `input`'s column, not by the constant $1: a contract the
// statistics have not met yet (one read for the first time) is estimated to have one row,
// and the planner then read every change of the contract in time order for each token's
// mint facts rather than the token's own index; the input's column is estimated as the
// average contract. RESET_WASH does the same.
export const UPSERT_TOKENS = `
WITH input AS MATERIALIZED (
  SELECT $1::integer AS contract_id, (r->>0)::numeric AS token_id, decode(r->>1, 'hex') AS owner, (r->>2)::bigint AS since,
    (r->>3)::smallint AS rank, (r->>4)::bigint AS last_id, (r->>5)::bigint AS first_ts,
    (r->>6)::boolean AS minted, (r->>7)::boolean AS burned, (r->>8)::integer AS changes
  FROM jsonb_array_elements($2::jsonb) AS r
), facts AS (${mintFactsOf('input t0')}
), old AS (
  -- One index look-up per token. OFFSET 0 keeps the planner from making the look-ups a
  -- join: with statistics taken while the contract had few tokens, it hashed every token
  -- of the contract for each page, and contracts read at once ran past the query timeout.
  SELECT i.token_id, t.owner, t.burned FROM input i
  CROSS JOIN LATERAL (
    SELECT owner, burned FROM idx_tokens WHERE contract_id = i.contract_id AND token_id = i.token_id
    OFFSET 0
  ) t
), up AS (
  INSERT INTO idx_tokens AS t (contract_id, token_id, owner, since, rank, last_id, first_ts,
    minted, burned, changes, minter, minted_at, first_sale_at, first_clean_sale_at)
  SELECT $1, token_id, owner, since, rank, last_id, first_ts, minted, burned, changes, minter,
    minted_at, first_sale_at, first_clean_sale_at FROM input JOIN facts USING (token_id)
  ON CONFLICT (contract_id, token_id) DO UPDATE SET
  owner = CASE WHEN (excluded.since, excluded.rank, excluded.last_id) >= (t.since, t.rank, t.last_id)
    THEN excluded.owner ELSE t.owner END,
  burned = CASE WHEN (excluded.since, excluded.rank, excluded.last_id) >= (t.since, t.rank, t.last_id)
    THEN excluded.burned ELSE t.burned END,
  since = greatest(t.since, excluded.since),
  rank = CASE WHEN (excluded.since, excluded.rank, excluded.last_id) >= (t.since, t.rank, t.last_id)
    THEN excluded.rank ELSE t.rank END,
  last_id = CASE WHEN (excluded.since, excluded.rank, excluded.last_id) >= (t.since, t.rank, t.last_id)
    THEN excluded.last_id ELSE t.last_id END,
  first_ts = least(t.first_ts, excluded.first_ts),
  minted = t.minted OR excluded.minted,
  changes = t.changes + excluded.changes,
  minter = excluded.minter, minted_at = excluded.minted_at,
  first_sale_at = excluded.first_sale_at, first_clean_sale_at = excluded.first_clean_sale_at
  RETURNING t.token_id, t.owner, t.burned
)
SELECT old.owner AS old_owner, old.burned AS old_burned, up.owner, up.burned
FROM up LEFT JOIN old USING (token_id)
WHERE old.token_id IS NULL OR old.owner <> up.owner OR old.burned <> up.burned`;

const UPSERT_OWNERS = `
INSERT INTO idx_owners AS o (contract_id, owner, tokens)
SELECT $1, decode(r->>0, 'hex'), (r->>1)::integer FROM jsonb_array_elements($2::jsonb) AS r
ON CONFLICT (contract_id, owner) DO UPDATE SET tokens = o.tokens + excluded.tokens`;
const DROP_OWNERS = `DELETE FROM idx_owners WHERE contract_id = $1 AND tokens <= 0
  AND owner IN (SELECT decode(h, 'hex') FROM jsonb_array_elements_text($2::jsonb) AS h)`;

interface Moved {
  old_owner: Buffer | null;
  old_burned: boolean | null;
  owner: Buffer;
  burned: boolean;
}

/** How many tokens each holder gained or lost (hex owner → difference), nothing for zero. */
function ownerDeltas(moved: readonly Moved[]): [string, number][] {
  const deltas = new Map<string, number>();
  const add = (owner: Buffer, by: number) => {
    const key = owner.toString('hex');
    deltas.set(key, (deltas.get(key) ?? 0) + by);
  };
  for (const row of moved) {
    if (row.old_owner && !row.old_burned) add(row.old_owner, -1);
    if (!row.burned) add(row.owner, 1);
  }
  return [...deltas].filter(([, by]) => by !== 0);
}

interface Touched {
  id: string;
  token_id: string;
  ts: string;
  kind: number;
  has_sale: boolean;
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

// The flags of every sale of the tokens given, within the wash window of the batch's sales
// of each (a sale's flags read the token's sales within the window either side), set
// where they changed; it answers the sales whose flags changed (with those they had).
export const RESET_WASH = `
WITH input AS MATERIALIZED (
  SELECT $1::integer AS contract_id, (r->>0)::numeric AS token_id, (r->>1)::bigint AS low,
    (r->>2)::bigint AS high
  FROM jsonb_array_elements($2::jsonb) AS r
), flags AS (${washFlagsOf(
  // Per token, its sales in the window, one range of the token's own index: the window
  // is said as (token, time) bounds, which the contract's time index cannot serve (without
  // statistics, in a new database, the planner otherwise scans the contract's time range
  // for each token), and OFFSET 0 keeps it from making this one scan of every sale.
  `input i CROSS JOIN LATERAL (
    SELECT * FROM idx_changes c WHERE c.contract_id = i.contract_id AND c.token_id = i.token_id AND c.has_sale
      AND (c.token_id, c.ts) >= (i.token_id, i.low - ${WASH_WINDOW_SECONDS})
      AND (c.token_id, c.ts) <= (i.token_id, i.high + ${WASH_WINDOW_SECONDS}) OFFSET 0
  ) c`,
)})
UPDATE idx_changes u SET wash = flags.wash FROM flags
WHERE u.id = flags.id AND flags.wash <> flags.stored
RETURNING u.id, u.ts, flags.stored`;

/** Per token of the batch's sales, the earliest and latest of their times. */
function saleSpans(touched: readonly Touched[]): [string, number, number][] {
  const spans = new Map<string, [string, number, number]>();
  for (const row of touched) {
    if (!row.has_sale) continue;
    const ts = Number(row.ts);
    const span = spans.get(row.token_id);
    if (span) {
      span[1] = Math.min(span[1], ts);
      span[2] = Math.max(span[2], ts);
    } else spans.set(row.token_id, [row.token_id, ts, ts]);
  }
  return [...spans.values()];
}

const DROP_HOURS = `DELETE FROM idx_hourly WHERE contract_id = $1 AND hour = ANY($2::integer[])`;
// The hours given, read as one range of time ($3 … $4) the index serves.
const RECOMPUTE_HOURS = hourlyRows(
  'idx_changes c',
  `c.contract_id = $1 AND c.ts >= $3 AND c.ts < $4 AND (c.ts / ${HOUR})::integer = ANY($2::integer[])`,
);

export function createIngest(pool: pg.Pool) {
  const ids: ContractIds = contractIds(pool);

  /**
   * Writes the change rows of one contract; returns the rows that were new or joined, and
   * the sales newly flagged (what webhooks' rules read).
   */
  async function writeChanges(client: pg.PoolClient, contractId: number, rows: ChangeRow[]) {
    const none = { added: [] as string[], flagged: [] as string[] };
    if (rows.length === 0) return none;
    const { rows: touched } = await client.query<Touched>(UPSERT_CHANGES, [
      changeTuples(rows),
      contractId,
    ]);
    if (touched.length === 0) return none;
    const flagged: string[] = [];
    const hours = new Set(touched.map((row) => Math.floor(Number(row.ts) / HOUR)));
    // The flags first: the tokens' mint facts read them (UPSERT_TOKENS).
    const spans = saleSpans(touched);
    // Hours whose flags changed beyond the batch's own: apart, as they may lie a month off.
    const reflagged = new Set<number>();
    if (spans.length > 0) {
      const { rows } = await client.query<{ id: string; ts: string; stored: number }>(RESET_WASH, [
        contractId,
        JSON.stringify(spans),
      ]);
      for (const row of rows) {
        if (row.stored === 0) flagged.push(row.id);
        const hour = Math.floor(Number(row.ts) / HOUR);
        if (!hours.has(hour)) reflagged.add(hour);
      }
    }
    const states = tokenStates(touched);
    const { rows: moved } = await client.query<Moved>(UPSERT_TOKENS, [
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
    const deltas = ownerDeltas(moved);
    if (deltas.length > 0) {
      await client.query(UPSERT_OWNERS, [contractId, JSON.stringify(deltas)]);
      const losers = deltas.filter(([, by]) => by < 0).map(([owner]) => owner);
      if (losers.length > 0) await client.query(DROP_OWNERS, [contractId, JSON.stringify(losers)]);
    }
    const recompute = async (list: number[]) => {
      await client.query(DROP_HOURS, [contractId, list]);
      await client.query(RECOMPUTE_HOURS, [
        contractId,
        list,
        Math.min(...list) * HOUR,
        (Math.max(...list) + 1) * HOUR,
      ]);
    };
    await recompute([...hours]);
    for (const hour of reflagged) await recompute([hour]);
    return { added: touched.map((row) => row.id), flagged };
  }

  /**
   * `ofContract`: the records are of the contract's own list, whose depth is what
   * coverage calls "indexed back to"; a token's list reaches further back for one token
   * only, so it moves the newest time but never the oldest.
   */
  async function ingestEvents(
    client: pg.PoolClient,
    contract: string,
    texts: readonly string[],
    ofContract: boolean,
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
      // The lock, and whether any webhook is registered, in one round trip: with none (as
      // on most servers) the page looks up no webhook watching the collection.
      const { rows: locked } = await client.query<{ hooks: boolean }>(
        `SELECT ${TAKE_LOCK}, ${ANY_WEBHOOK} AS hooks`,
        [contractId],
      );
      // A commit lost to a crash of PostgreSQL itself is read again from the upstream;
      // the store's own pages in this transaction are bound by the same rule.
      await client.query('SET LOCAL synchronous_commit = off');
      const watching = locked[0]!.hooks ? await watchersOf(client, address) : [];
      const holdersBefore = await holdersNow(client, contractId, watching);
      const written = await writeChanges(client, contractId, changeRows(list));
      changes += written.added.length;
      // Webhooks' deliveries of what this commit found, committed with it.
      await enqueueDeliveries(
        client,
        watching,
        {
          contract: address,
          contractId,
          ...written,
          ...(holdersBefore !== undefined && { holdersBefore }),
        },
        Date.now(),
      );
      let oldest = Infinity;
      let newest = -Infinity;
      for (const event of list) {
        if (event.timestamp < oldest) oldest = event.timestamp;
        if (event.timestamp > newest) newest = event.timestamp;
      }
      await client.query(
        `UPDATE idx_contracts SET
           oldest_ts = CASE WHEN $4 THEN least(coalesce(oldest_ts, $2), $2) ELSE oldest_ts END,
           newest_ts = greatest(coalesce(newest_ts, $3), $3) WHERE id = $1`,
        [contractId, oldest, newest, ofContract],
      );
    }
    return { records: texts.length, skipped, changes };
  }

  async function ingestContracts(
    client: pg.PoolClient,
    texts: readonly string[],
  ): Promise<IngestStats> {
    let skipped = 0;
    // One a contract, the later over the earlier, as a later page's: one statement cannot
    // change a row twice (a page, or a rebuild's whole list, may name a contract twice).
    const byAddress = new Map<string, Contract>();
    for (const text of texts) {
      const contract = normaliseContract(JSON.parse(text));
      if (contract) byAddress.set(contract.address, contract);
      else skipped += 1;
    }
    const contracts = [...byAddress.values()];
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
    /**
     * The record log's commit hook, inside its transaction: `texts` are the records just
     * added to the list at `path` (JSON, as the service sent them); `state` is the list's
     * after the commit (`complete`: stored to its end; `records`: how many it holds).
     */
    async onCommit(
      client: pg.PoolClient,
      path: string,
      texts: readonly string[],
      state: { complete: boolean; records: number },
    ): Promise<IngestStats | undefined> {
      const target = parseListPath(path);
      if (!target) return undefined;
      if (target.kind === 'contracts') return ingestContracts(client, texts);
      const stats = await ingestEvents(
        client,
        target.contract,
        texts,
        target.kind === 'contract-events',
      );
      if (target.kind === 'contract-events') {
        const contractId = await ids.idOf(target.contract);
        await client.query(
          `UPDATE idx_contracts SET complete = complete OR $2, records = $3 WHERE id = $1`,
          [contractId, state.complete, state.records],
        );
      }
      return stats;
    },
  };
}

export type Ingest = ReturnType<typeof createIngest>;
