import fc from 'fast-check';
import type pg from 'pg';
import { CURRENCIES } from '../../../src/lib/price';
import {
  contractEventsPath,
  parseListPath,
  tokenEventsPath,
} from '../../../src/server/index/list-path';
import { indexCommitHook } from '../../../src/server/index/open-index';
import { readListPage } from '../../../src/server/log/list-page';
import { appendToLog } from '../../support/log-records';

/**
 * Histories of one contract for property tests of the index: five wallets, a few tokens,
 * each minted, then moved, sold or burned; the records the deployed service sends for
 * them; and their ingest, page by page, as the record log commits pages.
 */
export const CONTRACT = `0x${'c'.repeat(64)}`;
export const ZERO = `0x${'0'.repeat(64)}`;
export const WALLETS = ['1', '2', '3', '4', '5'].map((d) => `0x${d.repeat(64)}`);
export const hex64 = (n: bigint) => `0x${n.toString(16).padStart(64, '0')}`;

/** Marketplaces a sale names; the empty name is a sale record that names none. */
export const MARKETPLACES = ['Element', 'Ventory', 'Pyramid', ''];

export interface Change {
  kind: 'mint' | 'transfer' | 'sale' | 'burn';
  token: number;
  from: string;
  to: string;
  ts: number;
  tx: string;
  price?: bigint;
  currency?: string;
  reversed?: boolean;
  hexPrice?: boolean;
  marketplace?: string;
}

/** A history: each token minted, then moved, sold or burned, times strictly rising per token. */
export const history = fc
  .array(
    fc.record({
      token: fc.integer({ min: 1, max: 6 }),
      step: fc.constantFrom('transfer', 'sale', 'sale', 'burn'),
      to: fc.integer({ min: 0, max: 4 }),
      // Mostly within a day; sometimes months (the time from a mint to a first sale).
      gap: fc.oneof(
        { weight: 3, arbitrary: fc.integer({ min: 1, max: 100_000 }) },
        { weight: 1, arbitrary: fc.integer({ min: 1, max: 250 * 86_400 }) },
      ),
      market: fc.integer({ min: 0, max: MARKETPLACES.length - 1 }),
      price: fc.bigInt({ min: 1n, max: 10n ** 21n }),
      currency: fc.integer({ min: 0, max: 4 }),
      reversed: fc.boolean(),
      hexPrice: fc.boolean(),
    }),
    { maxLength: 40, size: 'large' },
  )
  .map((steps) => {
    const owner = new Map<number, string | null>();
    const time = new Map<number, number>();
    const changes: Change[] = [];
    let tx = 1n;
    for (const step of steps) {
      const held = owner.get(step.token);
      const ts = (time.get(step.token) ?? 1_700_000_000 + step.token * 7) + step.gap;
      time.set(step.token, ts);
      const txHash = hex64(tx++);
      if (held === undefined) {
        changes.push({
          kind: 'mint',
          token: step.token,
          from: ZERO,
          to: WALLETS[step.to]!,
          ts,
          tx: txHash,
        });
        owner.set(step.token, WALLETS[step.to]!);
        continue;
      }
      if (held === null) continue;
      if (step.step === 'burn') {
        changes.push({ kind: 'burn', token: step.token, from: held, to: ZERO, ts, tx: txHash });
        owner.set(step.token, null);
        continue;
      }
      const to = WALLETS[step.to]!;
      // A transfer to its holder is no change; a sale to its seller is (a wash trade).
      if (to === held && step.step !== 'sale') continue;
      const change: Change = {
        kind: step.step as 'transfer' | 'sale',
        token: step.token,
        from: held,
        to,
        ts,
        tx: txHash,
      };
      if (step.step === 'sale') {
        change.price = step.price;
        change.currency =
          step.currency < 3
            ? CURRENCIES[step.currency]!.address
            : step.currency === 3
              ? undefined
              : `0x${'e'.repeat(64)}`;
        change.reversed = step.reversed;
        change.hexPrice = step.hexPrice;
        change.marketplace = MARKETPLACES[step.market]!;
      }
      changes.push(change);
      owner.set(step.token, to);
    }
    return changes;
  });

/** The records the deployed service sends for a history: a sale is its transfer and its sale record. */
export function recordsOf(changes: Change[]): Record<string, string>[] {
  const records: Record<string, string>[] = [];
  changes.forEach((change, index) => {
    const common = {
      token_id: String(change.token),
      token_id_hex: hex64(BigInt(change.token)),
      timestamp: String(change.ts),
      transaction_hash: change.tx,
    };
    records.push({
      ...common,
      contract_address: CONTRACT,
      contract_type: 'ERC721',
      event_type: 'transfer',
      event_id: hex64(BigInt(index + 1) * 1_000_003n),
      from_address: change.from,
      to_address: change.to,
    });
    if (change.kind === 'sale') {
      const [from, to] = change.reversed ? [change.to, change.from] : [change.from, change.to];
      records.push({
        ...common,
        nft_contract_address: CONTRACT,
        event_type: 'sale',
        event_id: common.token_id_hex,
        from_address: from,
        to_address: to,
        price: change.hexPrice ? hex64(change.price!) : change.price!.toString(),
        quantity: '1',
        ...(change.marketplace && { marketplace_name: change.marketplace }),
        marketplace_contract_address: `0x${'d'.repeat(64)}`,
        ...(change.currency !== undefined && { currency_address: change.currency }),
      });
    }
  });
  return records;
}

/**
 * Ingests the pages in order, as the record log commits them: each page's records added to
 * the log's list at `path` and given to the index's commit hook in the same transaction,
 * then what the hook leaves for after the commit (a first read's build) run, unless the
 * process is taken to stop right after the commit (`crash`). Ingest is given every record
 * of the page, those the list holds already too (another list may hold them again): they
 * must change nothing. `bulk`: a contract's first read stored in the log alone and built
 * (first-read.ts); otherwise page by page.
 */
export async function ingestPages(
  pool: pg.Pool,
  pages: Record<string, string>[][],
  {
    path = contractEventsPath(CONTRACT),
    complete = false,
    bulk = false,
    crash = false,
  }: { path?: string; complete?: boolean; bulk?: boolean; crash?: boolean } = {},
) {
  const hook = indexCommitHook(pool, pool, { bulkFirstRead: bulk });
  const identity = parseListPath(path)?.kind === 'contracts' ? 'contract' : 'event';
  for (const page of pages) {
    const { records } = readListPage({ result: page, cursor: null }, identity);
    const client = await pool.connect();
    let after: void | (() => Promise<unknown>);
    try {
      await client.query('BEGIN');
      const state = await appendToLog(client, path, records, complete);
      after = await hook.onCommit(
        client,
        path,
        records.map((record) => Buffer.from(record.json).toString()),
        state,
        false,
      );
      await client.query('COMMIT');
    } catch (error) {
      await client.query('ROLLBACK');
      throw error;
    } finally {
      client.release();
    }
    if (typeof after === 'function' && !crash) await after();
  }
}

/** Pages of the records in any order, some records on two pages, twins split anywhere. */
export const delivery = (count: number) =>
  fc.record({
    cuts: fc.array(fc.integer({ min: 0, max: Math.max(0, count) }), { maxLength: 8 }),
    repeats: fc.array(fc.integer({ min: 0, max: Math.max(0, count - 1) }), { maxLength: 6 }),
    order: fc.array(fc.nat(), { minLength: 12, maxLength: 12 }),
    // Each record a page of its own: a sale meets the others of its token only in the index.
    apart: fc.boolean(),
  });

export type Delivery = { cuts: number[]; repeats: number[]; order: number[]; apart: boolean };

/** Pages of the records in any order, twice some, twins split anywhere. */
export function pagesOf(
  records: Record<string, string>[],
  { cuts, repeats, order, apart }: Delivery,
): Record<string, string>[][] {
  const every = apart ? records.map((_, index) => index) : cuts;
  const bounds = [...new Set([0, ...every, records.length])].sort((a, b) => a - b);
  const pages = bounds.slice(1).map((end, index) => records.slice(bounds[index], end));
  for (const repeat of repeats) {
    if (repeat < records.length) pages[repeat % Math.max(1, pages.length)]?.push(records[repeat]!);
  }
  return pages
    .map((page, index) => ({ page, key: order[index % order.length]! * 31 + index }))
    .sort((a, b) => a.key - b.key)
    .map((entry) => entry.page);
}

/** Pages of the records in any order, twice some, twins split anywhere: onto the index. */
export async function deliver(
  pool: pg.Pool,
  records: Record<string, string>[],
  delivered: Delivery,
) {
  const pages = pagesOf(records, delivered);
  await ingestPages(pool, pages);
  // A page read twice (a head re-read, a walk round a dead cursor) changes nothing.
  if (pages[0]) await ingestPages(pool, [pages[0]]);
}

export const CONTRACTS_PATH = '/v1/contracts';
// The contracts list: this history's contract, and one with no events indexed.
const CONTRACT_RECORDS: Record<string, string>[] = [
  { contract_address: CONTRACT, contract_type: 'ERC721', name: 'Cats', symbol: 'CAT' },
  { contract_address: `0x${'b'.repeat(64)}`, name: 'Dogs' },
];

export interface List {
  path: string;
  records: Record<string, string>[];
}

/** A history's lists: the contracts list, its contract's (no burns) and its tokens'. */
function listsOf(records: Record<string, string>[], tokens: number[]): List[] {
  return [
    { path: CONTRACTS_PATH, records: CONTRACT_RECORDS },
    { path: contractEventsPath(CONTRACT), records: records.filter((r) => r.to_address !== ZERO) },
    ...tokens.map((token) => ({
      path: tokenEventsPath(CONTRACT, String(token)),
      records: records.filter((r) => r.token_id === String(token)),
    })),
  ];
}

/**
 * A history's lists, each cut into pages delivered in any order, interleaved; the
 * contract's list read to its end from its `completeAt`-th page on, when `complete`.
 */
export const scenario = history
  .chain((changes) =>
    fc.record({
      records: fc.constant(recordsOf(changes)),
      tokens: fc.subarray([1, 2, 3, 4, 5, 6]),
    }),
  )
  .chain(({ records, tokens }) => {
    const lists = listsOf(records, tokens);
    return fc.record({
      lists: fc.constant(lists),
      deliveries: fc.tuple(...lists.map((list) => delivery(list.records.length))),
      interleave: fc.array(fc.nat(), { minLength: 16, maxLength: 16 }),
      complete: fc.boolean(),
      completeAt: fc.nat({ max: 12 }),
      // Small batches: twins, and a record in two lists, fall in two batches.
      batch: fc.integer({ min: 1, max: 7 }),
    });
  });

export type Scenario = {
  lists: List[];
  deliveries: Delivery[];
  interleave: number[];
  complete: boolean;
  completeAt: number;
};

/**
 * Every list's pages, interleaved in any order, onto the log and the index (`bulk` and
 * `crash` as `ingestPages`); `keep` leaves records out.
 */
export async function deliverLists(
  pool: pg.Pool,
  { lists, deliveries, interleave, complete, completeAt }: Scenario,
  {
    keep = () => true,
    bulk = false,
    crash = false,
  }: {
    keep?: (path: string, record: Record<string, string>) => boolean;
    bulk?: boolean;
    crash?: boolean;
  } = {},
) {
  const own = contractEventsPath(CONTRACT);
  const pages = lists
    .flatMap((list, index) =>
      pagesOf(list.records, deliveries[index]!).map((page) => ({ path: list.path, page })),
    )
    .map((entry, index) => ({ ...entry, key: interleave[index % interleave.length]! * 37 + index }))
    .sort((a, b) => a.key - b.key);
  const ownPages = pages.filter((entry) => entry.path === own).length;
  let ownPage = 0;
  for (const { path, page } of pages) {
    // The contract's list is whole from one of its pages on (the walk's end).
    const whole = path === own && complete && ownPage++ >= Math.min(completeAt, ownPages - 1);
    await ingestPages(pool, [page.filter((record) => keep(path, record))], {
      path,
      complete: whole,
      bulk,
      crash,
    });
  }
}
