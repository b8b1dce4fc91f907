import type pg from 'pg';
import type { EventKind } from '../../lib/token-event';
import type { EventRow, EventSortId } from '../../lib/answers';
import { EVENT_COLUMNS, EVENT_FROM, eventRow, type EventRecord } from './event-rows';
import type { KeysetValues } from './keyset';
import { KIND_CODES } from './index-schema';
import { addressBytes, Sql } from './sql';

/**
 * Events (changes of hands) of a contract or of a wallet, under any filter and sort, a
 * page at a time after a keyset position. Each sort is a run of "groups" taken in order
 * (a price sort: one currency after another, never a mix of units; a kind sort: one kind
 * after another) and, inside a group, an order that one index serves in one direction,
 * so every page costs the same however deep it is.
 */

export interface EventFilters {
  kinds?: readonly EventKind[];
  /** Sender or receiver. */
  address?: string;
  /** Unix seconds, from (inclusive) … to (exclusive). */
  from?: number;
  to?: number;
  tokenId?: string;
  marketplace?: string;
  /** A currency's address (ETH's counts sales that name none), or `none`: only those. */
  currency?: string;
  /** Base units, inclusive; only with a currency. */
  minPrice?: string;
  maxPrice?: string;
  /** Leave out sales flagged as wash trades (see wash-flags.ts). */
  excludeWash?: boolean;
  /** Only the sales flagged as wash trades. */
  onlyWash?: boolean;
}

export interface EventsQuery extends EventFilters {
  /** The contract's id in the index; absent: every contract (a wallet's events). */
  contractId?: number;
  sort: { id: EventSortId; desc: boolean };
  limit: number;
}

interface Column {
  expr: string;
  cast: string;
}

interface SortSpec {
  group: Column[];
  groupDesc: boolean;
  tail: Column[];
  tailDesc: boolean;
  /** Only rows with a readable price (a price sort). */
  priced?: boolean;
}

const TS: Column = { expr: 'c.ts', cast: 'bigint' };
const ID: Column = { expr: 'c.id', cast: 'bigint' };

function sortSpec({ id, desc }: EventsQuery['sort']): SortSpec {
  switch (id) {
    case 'time':
      return { group: [], groupDesc: false, tail: [TS, ID], tailDesc: desc };
    case 'token':
      return {
        group: [],
        groupDesc: false,
        tail: [{ expr: 'c.token_id', cast: 'numeric' }, ID],
        tailDesc: desc,
      };
    case 'kind':
      return {
        group: [{ expr: 'c.kind', cast: 'smallint' }],
        groupDesc: desc,
        tail: [TS, ID],
        tailDesc: true,
      };
    case 'price':
      return {
        group: [
          { expr: 'c.cur_rank', cast: 'smallint' },
          { expr: 'c.currency', cast: 'bytea' },
        ],
        groupDesc: false,
        tail: [{ expr: 'c.price', cast: 'numeric' }, ID],
        tailDesc: desc,
        priced: true,
      };
  }
}

/** How the answer is ordered, in words (the price sort's order of currencies above all). */
export function orderStatement(sort: EventsQuery['sort']): string {
  const dir = sort.desc ? 'descending' : 'ascending';
  switch (sort.id) {
    case 'time':
      return sort.desc ? 'Newest first.' : 'Oldest first.';
    case 'token':
      return `By token id, ${dir}.`;
    case 'kind':
      return `By kind (${sort.desc ? 'other, burn, sale, transfer, mint' : 'mint, transfer, sale, burn, other'}), newest first within each.`;
    case 'price':
      return (
        `Sales with a price only, one currency after another (ETH, with the sales that name no ` +
        `currency, ETH*; STRK, USDC, then other currencies by address), ${sort.desc ? 'highest' : 'lowest'} ` +
        `first within each; prices in different currencies are never compared.`
      );
  }
}

/**
 * Sales in a currency (ETH's include those naming none, stored as ETH), or `none`: only
 * the sales that named no currency.
 */
export function currencyConditions(sql: Sql, currency: string, alias = ''): string[] {
  return [
    `${alias}has_sale`,
    currency === 'none'
      ? `${alias}currency_assumed`
      : `${alias}currency = ${sql.param(addressBytes(currency))}`,
  ];
}

/** The query's conditions (on `c`), apart from the address and the keyset. */
export function conditions(sql: Sql, query: EventFilters & { contractId?: number }): string[] {
  const where: string[] = [];
  if (query.contractId !== undefined) where.push(`c.contract_id = ${sql.param(query.contractId)}`);
  if (query.kinds && query.kinds.length > 0) {
    const codes = query.kinds.map((kind) => KIND_CODES[kind]);
    where.push(`c.kind = ANY(${sql.param(codes)}::smallint[])`);
  }
  if (query.from !== undefined) where.push(`c.ts >= ${sql.param(query.from)}`);
  if (query.to !== undefined) where.push(`c.ts < ${sql.param(query.to)}`);
  if (query.tokenId !== undefined) where.push(`c.token_id = ${sql.param(query.tokenId)}::numeric`);
  if (query.marketplace !== undefined) {
    where.push(`c.marketplace = ${sql.param(query.marketplace)}`);
  }
  if (query.currency !== undefined) where.push(...currencyConditions(sql, query.currency, 'c.'));
  if (query.minPrice !== undefined) where.push(`c.price >= ${sql.param(query.minPrice)}::numeric`);
  if (query.maxPrice !== undefined) where.push(`c.price <= ${sql.param(query.maxPrice)}::numeric`);
  if (query.excludeWash) where.push('c.wash = 0');
  if (query.onlyWash) where.push('c.wash <> 0');
  return where;
}

/** The rows a price sort lists: sales with a readable price. */
const PRICED = ['c.has_sale', 'c.price IS NOT NULL'];

/** Sender or receiver, in one condition (a count's; pages merge two index scans instead). */
export function eitherParty(sql: Sql, address: string): string {
  const bytes = sql.param(addressBytes(address));
  return `(c.from_addr = ${bytes} OR c.to_addr = ${bytes})`;
}

/** How many sales with a price the filters keep: the rows a price sort lists. */
export async function pricedCount(
  pool: pg.Pool,
  query: EventFilters & { contractId: number },
): Promise<number> {
  const sql = new Sql();
  const where = [...conditions(sql, query), ...PRICED];
  if (query.address !== undefined) where.push(eitherParty(sql, query.address));
  const { rows } = await pool.query<{ count: string }>(
    `SELECT count(*) AS count FROM idx_changes c WHERE ${where.join(' AND ')}`,
    sql.values,
  );
  return Number(rows[0]!.count);
}

const cmp = (desc: boolean) => (desc ? '<' : '>');
const dir = (desc: boolean) => (desc ? 'DESC' : 'ASC');

function valueOf(value: unknown): string | number | null {
  if (value === null || value === undefined) return null;
  if (Buffer.isBuffer(value)) return value.toString('hex');
  return typeof value === 'number' ? value : String(value);
}

function paramOf(sql: Sql, column: Column, value: string | number | null): string {
  if (column.cast === 'bytea') {
    return sql.param(value === null ? null : Buffer.from(String(value), 'hex'));
  }
  return `${sql.param(value)}::${column.cast}`;
}

/** `group = values` (a group's columns are never NULL: a priced row is a sale, with a currency). */
function groupEquals(
  sql: Sql,
  spec: SortSpec,
  values: KeysetValues,
  count = spec.group.length,
): string[] {
  // Only the columns used get a parameter: PostgreSQL refuses one the text never names.
  return spec.group
    .slice(0, count)
    .map((column, index) => `${column.expr} = ${paramOf(sql, column, values[index] ?? null)}`);
}

export interface EventsPage {
  rows: EventRow[];
  /** Keyset values after the last row, when more follow. */
  next: KeysetValues | null;
  /**
   * Where a list in time order would go on if older rows came (the indexer still reading
   * its history): after the last row, or where the page started. Absent for other sorts.
   */
  resume?: KeysetValues;
}

/** A page of rows, each sale with its stored wash-trade flags (`washFlags`). */
export async function eventsPage(
  pool: pg.Pool,
  query: EventsQuery,
  after: KeysetValues | null,
): Promise<EventsPage> {
  const spec = sortSpec(query.sort);
  const groups = spec.group.length;
  if (after && after.length !== groups + spec.tail.length) after = null;
  let group: KeysetValues | null = after ? after.slice(0, groups) : null;
  let tail: KeysetValues | null = after ? after.slice(groups) : null;
  const rows: EventRow[] = [];
  if (groups > 0 && group === null) {
    group = await nextGroup(pool, query, spec, null);
    if (group === null) return { rows, next: null };
  }
  for (;;) {
    const need = query.limit - rows.length;
    const found = await fetchRows(pool, query, spec, group, tail, need + 1);
    if (found.length > need) {
      const taken = found.slice(0, need);
      rows.push(...taken.map((record) => eventRow(record)));
      const last = taken.at(-1)!;
      return { rows, next: [...(group ?? []), ...keysOf(last, spec.tail.length)] };
    }
    rows.push(...found.map((record) => eventRow(record)));
    if (groups === 0) {
      const last = found.at(-1);
      return { rows, next: null, resume: last ? keysOf(last, spec.tail.length) : (after ?? []) };
    }
    group = await nextGroup(pool, query, spec, group);
    tail = null;
    if (group === null) return { rows, next: null };
    if (rows.length === query.limit) {
      // The page is full and another group follows: start there next time.
      return { rows, next: [...group, ...spec.tail.map(() => null)] };
    }
  }
}

type KeyedRecord = EventRecord & Record<`k${number}`, unknown>;

const keysOf = (record: KeyedRecord, count: number): KeysetValues =>
  Array.from({ length: count }, (_, index) => valueOf(record[`k${index}`]));

async function fetchRows(
  pool: pg.Pool,
  query: EventsQuery,
  spec: SortSpec,
  group: KeysetValues | null,
  tail: KeysetValues | null,
  limit: number,
): Promise<KeyedRecord[]> {
  const sql = new Sql();
  const where = conditions(sql, query);
  if (spec.priced) where.push(...PRICED);
  if (group) where.push(...groupEquals(sql, spec, group));
  // A tail of nulls: the start of a group (a page that ended on a group's last row).
  if (tail && tail.every((value) => value !== null)) {
    const columns = spec.tail.map((column) => column.expr).join(', ');
    const values = spec.tail.map((column, index) => paramOf(sql, column, tail[index]!)).join(', ');
    where.push(`(${columns}) ${cmp(spec.tailDesc)} (${values})`);
  }
  const order = spec.tail.map((column) => `${column.expr} ${dir(spec.tailDesc)}`).join(', ');
  const keys = spec.tail.map((column, index) => `${column.expr} AS k${index}`).join(', ');
  const select = (extra: string) =>
    `SELECT ${EVENT_COLUMNS}, ${keys} FROM ${EVENT_FROM}
     WHERE ${[...where, extra].join(' AND ')} ORDER BY ${order} LIMIT ${sql.param(limit)}`;
  if (query.address === undefined) {
    const { rows } = await pool.query<KeyedRecord>(select('true'), sql.values);
    return rows;
  }
  // Sender or receiver: two index scans, each in the sort's order, merged.
  const address = sql.param(addressBytes(query.address));
  const text = `SELECT * FROM ((${select(`c.from_addr = ${address}`)}) UNION
    (${select(`c.to_addr = ${address}`)})) u
    ORDER BY ${spec.tail.map((_, index) => `k${index} ${dir(spec.tailDesc)}`).join(', ')}
    LIMIT ${sql.param(limit)}`;
  const { rows } = await pool.query<KeyedRecord>(text, sql.values);
  return rows;
}

/** The first group after `current` (or the first of all) that has a matching row. */
async function nextGroup(
  pool: pg.Pool,
  query: EventsQuery,
  spec: SortSpec,
  current: KeysetValues | null,
): Promise<KeysetValues | null> {
  const sql = new Sql();
  const where = conditions(sql, query);
  if (spec.priced) where.push(...PRICED);
  if (query.address !== undefined) where.push(eitherParty(sql, query.address));
  if (current) {
    // Lexicographic "after" over the group's columns.
    const alternatives: string[] = [];
    spec.group.forEach((column, index) => {
      const equalBefore = groupEquals(sql, spec, current, index);
      const after = `${column.expr} ${cmp(spec.groupDesc)} ${paramOf(sql, column, current[index] ?? null)}`;
      alternatives.push([...equalBefore, after].join(' AND '));
    });
    where.push(`(${alternatives.map((a) => `(${a})`).join(' OR ')})`);
  }
  const order = spec.group.map((column) => `${column.expr} ${dir(spec.groupDesc)}`).join(', ');
  const columns = spec.group.map((column, index) => `${column.expr} AS g${index}`).join(', ');
  const { rows } = await pool.query<Record<string, unknown>>(
    `SELECT ${columns} FROM idx_changes c WHERE ${where.join(' AND ')} ORDER BY ${order} LIMIT 1`,
    sql.values,
  );
  const row = rows[0];
  return row ? spec.group.map((_, index) => valueOf(row[`g${index}`])) : null;
}
