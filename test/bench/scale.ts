import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import pg from 'pg';
import { WINDOWS, type RankingWindow } from '../../src/lib/answers';
import { eventsPage, type EventsQuery } from '../../src/server/index/events-query';
import { overview } from '../../src/server/index/figures';
import { holders } from '../../src/server/index/holders';
import type { KeysetValues } from '../../src/server/index/keyset';
import { market } from '../../src/server/index/market';
import { rankings } from '../../src/server/index/rankings';
import { series } from '../../src/server/index/series';
import { walletCollections } from '../../src/server/index/wallet';
import { startPostgres, type PostgresServer } from '../support/postgres-server';
import type { BenchContext } from './context';
import { positions, postgresMemory, spread } from './event-index';
import { startIndexCommand, startSampleService, type Running } from './lib/processes';
import { count, ms, percentile, round } from './lib/stats';

/**
 * scale. The whole path at the real service's shape: the sample service's scale data
 * (`--shape scale`: thousands of contracts, one with 30% of the events, most with a
 * handful) read end to end by `npm run index -- --all` into a PostgreSQL of the tests'
 * own, then the query API's functions on the busiest contract and its busiest wallets.
 * SCALE_EVENTS (default 1,000,000) and SCALE_CONTRACTS (default one per 1,000 events, at
 * most 5,000) set the size; the full size is SCALE_EVENTS=10000000.
 */
const bench = 'scale';
const RUNS = 20;
const PAGE = 50;
const DAY = 86_400;
const ZERO = Buffer.alloc(32);
const SAMPLE_MS = 1_000;
/** Left of the run's deadline for what follows the ingest: the vacuum and the queries. */
const QUERIES_MS = 300_000;

const BUDGET = {
  changesPerSecond: 50_000,
  eventsP95Ms: 50,
  overviewMs: 100,
  seriesDayMs: 200,
  holdersNowMs: 100,
  holdersAsOfMs: 200,
  marketMs: 300,
  rankingMs: 100,
  walletAcrossMs: 100,
  memoryMb: 500,
};

type Context = Pick<BenchContext, 'report' | 'deadline' | 'log'>;

export const scaleSize = () => {
  const events = Number(process.env.SCALE_EVENTS ?? 1_000_000);
  const contracts = Number(
    process.env.SCALE_CONTRACTS ?? Math.min(5_000, Math.max(50, Math.round(events / 1_000))),
  );
  if (!Number.isSafeInteger(events) || events < 1 || !Number.isSafeInteger(contracts)) {
    throw new Error('SCALE_EVENTS and SCALE_CONTRACTS must be positive integers');
  }
  return { events, contracts };
};

/** Resident memory of a process, MB; 0 once it has ended. */
function rssMb(pid: number | undefined): number {
  try {
    const kb = /^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    return Number(kb ?? 0) / 1024;
  } catch {
    return 0;
  }
}

export async function scaleBench(context: Context): Promise<void> {
  const { report, deadline, log } = context;
  const size = scaleSize();
  const key = randomBytes(12).toString('hex');
  let postgres: PostgresServer | undefined;
  let sample: Running | undefined;
  let pool: pg.Pool | undefined;
  try {
    log(
      `${bench}: the scale sample (${count(size.events)} events, ${count(size.contracts)} contracts) and PostgreSQL`,
    );
    [postgres, sample] = await Promise.all([
      startPostgres(),
      startSampleService({ key, shape: 'scale', ...size }),
    ]);
    const port = new URL(postgres.url).port;
    const sampleRssAtStart = rssMb(sample.child.pid);

    log(`${bench}: npm run index -- --all`);
    let contractsDone = 0;
    const indexing = startIndexCommand(
      ['--all'],
      {
        TOKEN_EVENTS_API_URL: sample.url,
        TOKEN_EVENTS_API_KEY: key,
        DATABASE_URL: postgres.url,
        // The sample service is read as fast as the index takes it: no plan's rate or quota.
        UPSTREAM_RATE_PER_SECOND: '0',
        UPSTREAM_MONTHLY_QUOTA: '0',
        INDEX_VERIFY_SHARE: '0',
      },
      (line) => {
        if (line.includes(' done in ')) contractsDone += 1;
        else if (!line.startsWith('[')) log(`${bench}: index: ${line}`);
      },
    );
    const started = performance.now();
    const peak = { index: 0, sample: 0, postgres: 0 };
    let ticks = 0;
    const sampler = setInterval(() => {
      peak.index = Math.max(peak.index, rssMb(indexing.child.pid));
      peak.sample = Math.max(peak.sample, rssMb(sample?.child.pid));
      // Every process's PSS is a walk of its page tables: every fifth tick is enough.
      if (ticks++ % 5 === 0) {
        try {
          peak.postgres = Math.max(peak.postgres, postgresMemory(port).pssMb);
        } catch {
          // Between a backend's end and its last read: the next tick reads again.
        }
      }
      if (ticks % 30 === 0) {
        log(
          `${bench}: ${count(contractsDone)} contracts indexed, index RSS ${round(peak.index, 0)} MB at most`,
        );
      }
    }, SAMPLE_MS);
    const timedOut = new Promise<'timeout'>((done) =>
      setTimeout(() => done('timeout'), Math.max(0, deadline.left() - QUERIES_MS)).unref(),
    );
    const exit = await Promise.race([indexing.exited, timedOut]);
    clearInterval(sampler);
    const seconds = (performance.now() - started) / 1000;
    if (exit === 'timeout') {
      indexing.child.kill('SIGTERM');
      report.note(
        `${bench}: the index command was stopped at the run's deadline; figures are partial.`,
      );
    } else if (exit !== 0) {
      throw new Error(`the index command exited with ${exit}`);
    }

    pool = new pg.Pool({ connectionString: postgres.url, max: 4 });
    const db = pool;
    const stats = (await (
      await fetch(`${sample.url}/_control/stats`, { headers: { 'x-api-key': key } })
    ).json()) as { requests: number };
    const changes = Number(
      (await db.query<{ n: string }>('SELECT count(*) AS n FROM idx_changes')).rows[0]!.n,
    );
    const rate = changes / seconds;
    report.info(
      bench,
      'size: events / contracts served; contracts and changes of hands indexed; upstream pages',
      `${count(size.events)} / ${count(size.contracts)}; ${count(contractsDone)} and ` +
        `${count(changes)}; ${count(stats.requests)}`,
    );
    report.budget(
      bench,
      'ingest end to end (npm run index -- --all): seconds, changes of hands/s',
      `${round(seconds, 1)} s, ${count(rate)}/s`,
      `≥ ${count(BUDGET.changesPerSecond)}/s`,
      rate >= BUDGET.changesPerSecond,
    );
    report.info(bench, 'upstream pages a second', `${round(stats.requests / seconds, 1)}/s`);
    const memory = peak.index + peak.postgres;
    report.budget(
      bench,
      'memory while indexing, at most: the index command (RSS) + PostgreSQL (PSS)',
      `${round(peak.index, 0)} MB + ${round(peak.postgres, 0)} MB = ${round(memory, 0)} MB`,
      `≤ ${BUDGET.memoryMb} MB`,
      memory <= BUDGET.memoryMb,
    );
    report.info(
      bench,
      'the sample service (RSS): after generating / at most while served',
      `${round(sampleRssAtStart, 0)} MB / ${round(peak.sample, 0)} MB`,
    );
    report.set('scale.ingest', { ...size, seconds, changes, pages: stats.requests, peak });
    await sample.stop();
    sample = undefined;

    const vacuum = performance.now();
    await db.query('VACUUM ANALYZE');
    report.info(bench, 'VACUUM ANALYZE afterwards', ms(performance.now() - vacuum, 0));
    await queries(context, db);
    const database = postgresMemory(port);
    report.info(
      bench,
      'memory after the queries: PostgreSQL (PSS); this process (RSS)',
      `${round(database.pssMb, 0)} MB; ${round(process.memoryUsage.rss() / 2 ** 20, 0)} MB`,
    );
  } finally {
    await pool?.end();
    await sample?.stop();
    await postgres?.stop();
  }
}

/** p50 / p95 of the query API's functions on the busiest contract and wallets. */
async function queries({ report, deadline, log }: Context, db: pg.Pool): Promise<void> {
  log(`${bench}: queries`);
  const busiest = (
    await db.query<{ id: number; n: string; oldest: string; newest: string }>(
      `SELECT contract_id AS id, count(*) AS n, min(ts) AS oldest, max(ts) AS newest
       FROM idx_changes GROUP BY contract_id ORDER BY count(*) DESC LIMIT 1`,
    )
  ).rows[0];
  if (!busiest) throw new Error('nothing was indexed');
  const { id } = busiest;
  const [changes, oldest, newest] = [
    Number(busiest.n),
    Number(busiest.oldest),
    Number(busiest.newest),
  ];
  const within = (run: number, length: number) =>
    Math.floor((oldest + ((newest - length - oldest) * run) / (RUNS - 1)) / 3600) * 3600;
  const sales = Number(
    (
      await db.query<{ n: string }>(
        'SELECT count(*) AS n FROM idx_changes WHERE contract_id = $1 AND kind = 2',
        [id],
      )
    ).rows[0]!.n,
  );
  const priced = Number(
    (
      await db.query<{ n: string }>(
        'SELECT count(*) AS n FROM idx_changes WHERE contract_id = $1 AND has_sale AND price IS NOT NULL',
        [id],
      )
    ).rows[0]!.n,
  );
  const wallets = (
    await db.query<{ address: string; n: string }>(
      `SELECT '0x' || encode(a, 'hex') AS address, count(*) AS n FROM (
         SELECT from_addr AS a FROM idx_changes UNION ALL SELECT to_addr FROM idx_changes) x
       WHERE a <> $1 GROUP BY a ORDER BY count(*) DESC, a LIMIT ${RUNS}`,
      [ZERO],
    )
  ).rows;
  const contractsOfBusiest = Number(
    (
      await db.query<{ n: string }>(
        `SELECT count(DISTINCT contract_id) AS n FROM idx_changes WHERE from_addr = $1 OR to_addr = $1`,
        [Buffer.from(wallets[0]!.address.slice(2), 'hex')],
      )
    ).rows[0]!.n,
  );
  report.info(
    bench,
    'the busiest contract: changes of hands, sales; the busiest wallet: changes, contracts',
    `${count(changes)}, ${count(sales)}; ${count(Number(wallets[0]!.n))}, ${count(contractsOfBusiest)}`,
  );
  const time = { columns: 'c.ts::text, c.id::text', order: 'c.ts DESC, c.id DESC' };
  const cursors = {
    deep: await positions(db, id, time, spread(changes, 0.05)),
    priceDesc: await positions(
      db,
      id,
      {
        columns: "c.cur_rank, encode(c.currency, 'hex'), c.price::text, c.id::text",
        order: 'c.cur_rank, c.currency, c.price DESC, c.id DESC',
        where: 'c.has_sale AND c.price IS NOT NULL',
      },
      spread(priced),
    ),
    sales: await positions(db, id, { ...time, where: 'c.kind = 2' }, spread(sales)),
  };

  const measure = async (
    name: string,
    run: (run: number) => Promise<unknown>,
    budgetMs: number,
  ) => {
    await run(0);
    const times: number[] = [];
    for (let index = 0; index < RUNS && !deadline.passed(); index += 1) {
      const start = performance.now();
      await run(index);
      times.push(performance.now() - start);
    }
    const [p50, p95] = [percentile(times, 50), percentile(times, 95)];
    report.set(`scale.query.${name}`, { p50, p95, max: Math.max(...times), runs: times.length });
    report.budget(
      bench,
      `${name}: p50 / p95`,
      `${ms(p50, 1)} / ${ms(p95, 1)}`,
      `p95 ≤ ${budgetMs} ms`,
      p95 <= budgetMs,
    );
  };
  const events = (query: Partial<EventsQuery>, after: KeysetValues | null = null) =>
    eventsPage(
      db,
      { contractId: id, sort: { id: 'time', desc: true }, limit: PAGE, ...query },
      after,
    );
  const e = BUDGET.eventsP95Ms;
  await measure(
    'events newest first, page 1 (20–200 rows)',
    (run) => events({ limit: [20, 50, 100, 200][run % 4]! }),
    e,
  );
  await measure(
    'events newest first, a page 5–95% deep',
    (run) => events({}, cursors.deep[run]!),
    e,
  );
  await measure(
    'events by -price, pages 0–95% deep',
    (run) => events({ sort: { id: 'price', desc: true } }, cursors.priceDesc[run]!),
    e,
  );
  await measure(
    'events kind=sale, pages 0–95% deep',
    (run) => events({ kinds: ['sale'] }, cursors.sales[run]!),
    e,
  );
  await measure(
    'events of a busy wallet in the contract',
    (run) => events({ address: wallets[run]!.address }),
    e,
  );
  await measure(
    'events in a 7-day span',
    (run) => events({ from: within(run, 7 * DAY), to: within(run, 7 * DAY) + 7 * DAY }),
    e,
  );
  await measure(
    'events of a busy wallet across contracts',
    (run) =>
      eventsPage(
        db,
        { address: wallets[run]!.address, sort: { id: 'time', desc: true }, limit: PAGE },
        null,
      ),
    e,
  );
  await measure(
    'a busy wallet across contracts (wallet.ts)',
    (run) => walletCollections(db, wallets[run]!.address),
    BUDGET.walletAcrossMs,
  );
  await measure('overview', () => overview(db, id), BUDGET.overviewMs);
  await measure(
    'series by day, whole history',
    () => series(db, id, 'day', {}),
    BUDGET.seriesDayMs,
  );
  let next: KeysetValues | null = null;
  await measure(
    'holders now (pages of 20)',
    async () => {
      next = (await holders(db, id, { limit: 20, after: next })).next;
    },
    BUDGET.holdersNowMs,
  );
  await measure(
    'holders as of a date',
    (run) => holders(db, id, { limit: 20, after: null, asOf: within(run, 0) }),
    BUDGET.holdersAsOfMs,
  );
  await measure('market, whole history', () => market(db, id, {}), BUDGET.marketMs);
  const windows = Object.keys(WINDOWS) as RankingWindow[];
  await measure(
    `ranking (${windows.join(', ')} in turn)`,
    (run) => rankings(db, windows[run % windows.length]!, newest),
    BUDGET.rankingMs,
  );
}
