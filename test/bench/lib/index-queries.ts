import type pg from 'pg';
import { WINDOWS, type RankingWindow } from '../../../src/lib/answers';
import { eventsPage, type EventsQuery } from '../../../src/server/index/events-query';
import { overview } from '../../../src/server/index/figures';
import { holders, replayHolders } from '../../../src/server/index/holders';
import type { KeysetValues } from '../../../src/server/index/keyset';
import { market } from '../../../src/server/index/market';
import { rankings } from '../../../src/server/index/rankings';
import { series } from '../../../src/server/index/series';
import { walletCollections } from '../../../src/server/index/wallet';
import type { Report } from './report';
import { ms, percentile, round, type Deadline } from './stats';

export const RUNS = 20;
const PAGE = 50;
const DAY = 86_400;

/** A database the same queries are timed on (bench `scale` compares two layouts). */
export interface QueryTarget {
  label: string;
  db: pg.Pool;
}

export type Measure = (
  name: string,
  run: (db: pg.Pool, run: number) => Promise<unknown>,
  budgetMs?: number,
  figure?: 'p95' | 'p50',
) => Promise<void>;

/**
 * Times a query `RUNS` times on each target after one run to warm it, the targets taken in
 * turn and in alternating order, so that the machine's load falls on each alike; with two
 * targets it prints the second's p50 over the first's. Labels are `${prefix}${name}`.
 */
export function queryTimer(options: {
  bench: string;
  prefix?: string;
  report: Report;
  deadline: Deadline;
  targets: QueryTarget[];
}): Measure {
  const { bench, prefix = '', report, deadline, targets } = options;
  return async (name, run, budgetMs, figure = 'p95') => {
    for (const target of targets) await run(target.db, 0);
    const times = targets.map((): number[] => []);
    for (let index = 0; index < RUNS && !deadline.passed(); index += 1) {
      const order = index % 2 === 0 ? targets : [...targets].reverse();
      for (const target of order) {
        const start = performance.now();
        await run(target.db, index);
        times[targets.indexOf(target)]!.push(performance.now() - start);
      }
    }
    targets.forEach((target, at) => {
      const own = times[at]!;
      const [p50, p95] = [percentile(own, 50), percentile(own, 95)];
      const of = targets.length > 1 ? ` [${target.label}]` : '';
      report.set(`${bench}.query.${name}${of}`, {
        p50,
        p95,
        max: Math.max(...own),
        runs: own.length,
      });
      const label = `${prefix}${name}${of}: p50 / p95`;
      const value = `${ms(p50, 1)} / ${ms(p95, 1)}`;
      if (budgetMs === undefined) report.info(bench, label, value);
      else {
        const measured = figure === 'p95' ? p95 : p50;
        report.budget(bench, label, value, `${figure} ≤ ${budgetMs} ms`, measured <= budgetMs);
      }
    });
    if (targets.length === 2) {
      const [first, second] = times.map((own) => percentile(own, 50));
      report.info(
        bench,
        `${prefix}${name}: p50 ${targets[1]!.label} / ${targets[0]!.label}`,
        `${round(second! / first!, 2)}×`,
      );
    }
  };
}

/** What the shared queries read: a contract, keyset positions in it, its busiest wallets. */
export interface QuerySubject {
  contractId: number;
  oldest: number;
  newest: number;
  /** The contract's changes of hands, sales, and sales with a price. */
  counts: { changes: number; sales: number; priced: number };
  /** Keyset positions 5–95% deep (`deep`), down -price and among sales, `RUNS` each. */
  cursors: Record<'deep' | 'priceDesc' | 'sales', (KeysetValues | null)[]>;
  /** The `RUNS` busiest wallets of the whole index (the zero address left out), `0x…`. */
  wallets: { address: string; changes: number }[];
}

/**
 * Keyset positions after the rows at `depths` of an order, as `eventsPage` hands them
 * out (its `next`): the columns of the sort's groups, then of its tail.
 */
export async function positions(
  pool: pg.Pool,
  contractId: number,
  { columns, order, where = 'true' }: { columns: string; order: string; where?: string },
  depths: number[],
): Promise<(KeysetValues | null)[]> {
  const { rows } = await pool.query<unknown[]>({
    text: `SELECT * FROM (SELECT ${columns}, row_number() OVER (ORDER BY ${order}) AS n
      FROM idx_changes c WHERE c.contract_id = $1 AND ${where}) k WHERE n = ANY($2::bigint[])
      ORDER BY n`,
    values: [contractId, depths.filter((depth) => depth > 0)],
    rowMode: 'array',
  });
  const found = new Map(rows.map((row) => [Number(row.at(-1)), row.slice(0, -1) as KeysetValues]));
  return depths.map((depth) => (depth > 0 ? (found.get(depth) ?? null) : null));
}

/** `RUNS` depths spread over a list of `total` rows: from its first page, or from `from`. */
export const spread = (total: number, from = 0) =>
  Array.from({ length: RUNS }, (_, run) =>
    Math.round(from * total + ((1 - from) * total * run) / RUNS),
  );

export const TIME_ORDER = { columns: 'c.ts::text, c.id::text', order: 'c.ts DESC, c.id DESC' };
export const priceOrder = (desc: boolean) => ({
  columns: "c.cur_rank, encode(c.currency, 'hex'), c.price::text, c.id::text",
  order: `c.cur_rank, c.currency, c.price ${desc ? 'DESC' : ''}, c.id ${desc ? 'DESC' : ''}`,
  where: 'c.has_sale AND c.price IS NOT NULL',
});

/** The subject of the shared queries: contract `contractId` as the index holds it. */
export async function querySubject(db: pg.Pool, contractId: number): Promise<QuerySubject> {
  const span = (
    await db.query<{ oldest: string; newest: string; n: string; sales: string; priced: string }>(
      `SELECT min(ts) AS oldest, max(ts) AS newest, count(*) AS n,
         count(*) FILTER (WHERE kind = 2) AS sales,
         count(*) FILTER (WHERE has_sale AND price IS NOT NULL) AS priced
       FROM idx_changes WHERE contract_id = $1`,
      [contractId],
    )
  ).rows[0]!;
  const counts = {
    changes: Number(span.n),
    sales: Number(span.sales),
    priced: Number(span.priced),
  };
  const wallets = (
    await db.query<{ address: string; n: string }>(
      `SELECT '0x' || encode(a, 'hex') AS address, count(*) AS n FROM (
         SELECT from_addr AS a FROM idx_changes UNION ALL SELECT to_addr FROM idx_changes) x
       WHERE a <> $1 GROUP BY a ORDER BY count(*) DESC, a LIMIT ${RUNS}`,
      [Buffer.alloc(32)],
    )
  ).rows.map((row) => ({ address: row.address, changes: Number(row.n) }));
  return {
    contractId,
    oldest: Number(span.oldest),
    newest: Number(span.newest),
    counts,
    wallets,
    cursors: {
      deep: await positions(db, contractId, TIME_ORDER, spread(counts.changes, 0.05)),
      priceDesc: await positions(db, contractId, priceOrder(true), spread(counts.priced)),
      sales: await positions(
        db,
        contractId,
        { ...TIME_ORDER, where: 'c.kind = 2' },
        spread(counts.sales),
      ),
    },
  };
}

export interface QueryBudgets {
  eventsP95Ms: number;
  overviewMs: number;
  seriesDayMs: number;
  holdersNowMs: number;
  holdersAsOfMs: number;
  marketMs: number;
  rankingMs?: number;
  walletAcrossMs?: number;
}

/** An hour-aligned start for run `run` of a span `length` long inside the contract's history. */
export const spanStart = (subject: QuerySubject, run: number, length: number) =>
  Math.floor(
    (subject.oldest + ((subject.newest - length - subject.oldest) * run) / (RUNS - 1)) / 3600,
  ) * 3600;

export const eventsOf = (
  db: pg.Pool,
  subject: QuerySubject,
  query: Partial<EventsQuery>,
  after: KeysetValues | null = null,
) =>
  eventsPage(
    db,
    { contractId: subject.contractId, sort: { id: 'time', desc: true }, limit: PAGE, ...query },
    after,
  );

/** The query API's answers that benches `index` and `scale` both time, on one contract. */
export async function sharedQueries(
  measure: Measure,
  subject: QuerySubject,
  budget: QueryBudgets,
): Promise<void> {
  const { contractId: id, cursors } = subject;
  const wallets = subject.wallets.map((wallet) => wallet.address);
  const e = budget.eventsP95Ms;
  const events = (db: pg.Pool, query: Partial<EventsQuery>, after: KeysetValues | null = null) =>
    eventsOf(db, subject, query, after);
  const within = (run: number, length: number) => spanStart(subject, run, length);
  await measure(
    'events newest first, page 1 (20–200 rows)',
    (db, run) => events(db, { limit: [20, 50, 100, 200][run % 4]! }),
    e,
  );
  await measure(
    'events newest first, a page 5–95% deep',
    (db, run) => events(db, {}, cursors.deep[run]!),
    e,
  );
  await measure(
    'events by -price, pages 0–95% deep',
    (db, run) => events(db, { sort: { id: 'price', desc: true } }, cursors.priceDesc[run]!),
    e,
  );
  await measure(
    'events kind=sale, pages 0–95% deep',
    (db, run) => events(db, { kinds: ['sale'] }, cursors.sales[run]!),
    e,
  );
  await measure(
    'events of a busy wallet in the contract',
    (db, run) => events(db, { address: wallets[run]! }),
    e,
  );
  await measure(
    'events in a 7-day span',
    (db, run) => events(db, { from: within(run, 7 * DAY), to: within(run, 7 * DAY) + 7 * DAY }),
    e,
  );
  await measure(
    'events of a busy wallet across contracts',
    (db, run) =>
      eventsPage(
        db,
        { address: wallets[run]!, sort: { id: 'time', desc: true }, limit: PAGE },
        null,
      ),
    e,
  );
  await measure(
    'a busy wallet across contracts (wallet.ts)',
    (db, run) => walletCollections(db, wallets[run]!),
    budget.walletAcrossMs,
  );
  await measure('overview', (db) => overview(db, id), budget.overviewMs);
  await measure(
    'series by day, whole history',
    (db) => series(db, id, 'day', {}),
    budget.seriesDayMs,
  );
  // Each target walks its own pages of holders.
  const next = new Map<pg.Pool, KeysetValues | null>();
  await measure(
    'holders now (pages of 20)',
    async (db) => {
      next.set(db, (await holders(db, id, { limit: 20, after: next.get(db) ?? null })).next);
    },
    budget.holdersNowMs,
  );
  // As of a date: every change up to it replayed (the reference), against counts kept at
  // moments (holder-moments.ts): a date's first ask keeps one (the warming run keeps run
  // 0's, so 1 of the 20 timed is a read again), a date asked again reads it, and a day
  // after it reads it and the day's changes.
  const asOf = (run: number) => within(run, 0);
  await measure('holders as of a date, replayed (every change up to it)', (db, run) =>
    replayHolders(db, id, asOf(run)),
  );
  await measure('holders as of a date, first ask (keeps the moment)', (db, run) =>
    holders(db, id, { limit: 20, after: null, asOf: asOf(run), keepIn: db }),
  );
  await measure(
    'holders as of a date, asked again',
    (db, run) => holders(db, id, { limit: 20, after: null, asOf: asOf(run), keepIn: db }),
    budget.holdersAsOfMs,
  );
  await measure(
    'holders as of a date, a day after a date asked',
    (db, run) => holders(db, id, { limit: 20, after: null, asOf: asOf(run) + DAY }),
    budget.holdersAsOfMs,
  );
  await measure('market, whole history', (db) => market(db, id, {}), budget.marketMs);
  const windows = Object.keys(WINDOWS) as RankingWindow[];
  await measure(
    `rankings (${windows.join(', ')} in turn)`,
    (db, run) => rankings(db, windows[run % windows.length]!, subject.newest),
    budget.rankingMs,
  );
}
