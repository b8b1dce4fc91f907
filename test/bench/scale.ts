import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import pg from 'pg';
import { startPostgres, type PostgresServer } from '../support/postgres-server';
import type { BenchContext } from './context';
import { postgresMemory } from './event-index';
import { queryTimer, sharedQueries, querySubject, type QueryTarget } from './lib/index-queries';
import { partitionedCopy, PARTITIONED_PATH } from './lib/partitioned';
import { startIndexCommand, startSampleService, type Running } from './lib/processes';
import { count, ms, round } from './lib/stats';

/**
 * scale. The whole path at the real service's shape: the sample service's scale data
 * (`--shape scale`: thousands of contracts, one with 30% of the events, most with a
 * handful) read end to end by `npm run index -- --all` into a PostgreSQL of the tests'
 * own, then the query API's functions on the busiest contract and its busiest wallets.
 * SCALE_EVENTS (default 1,000,000) and SCALE_CONTRACTS (default one per 1,000 events, at
 * most 5,000) set the size; the full size is SCALE_EVENTS=10000000. SCALE_PARTITIONS=N
 * times every query on a copy partitioned by hash of the contract as well, interleaved.
 */
const bench = 'scale';
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

/** SCALE_PARTITIONS: time the queries on tables of that many hash partitions too (0: not). */
const scalePartitions = () => {
  const partitions = Number(process.env.SCALE_PARTITIONS ?? 0);
  if (!Number.isSafeInteger(partitions) || partitions < 0 || partitions > 1024) {
    throw new Error('SCALE_PARTITIONS must be an integer from 0 to 1024');
  }
  return partitions;
};

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
    await queries(context, db, postgres.url);
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

/**
 * p50 / p95 of the query API's functions on the busiest contract and wallets: on the
 * tables as they are, and with SCALE_PARTITIONS set, beside the same rows in tables
 * partitioned by hash of the contract (`partitioned.ts`), interleaved.
 */
async function queries(
  { report, deadline, log }: Context,
  db: pg.Pool,
  url: string,
): Promise<void> {
  log(`${bench}: queries`);
  const busiest = (
    await db.query<{ id: number }>(
      'SELECT contract_id AS id FROM idx_changes GROUP BY contract_id ORDER BY count(*) DESC LIMIT 1',
    )
  ).rows[0];
  if (!busiest) throw new Error('nothing was indexed');
  const subject = await querySubject(db, busiest.id);
  const wallet = subject.wallets[0]!;
  const contractsOfBusiest = Number(
    (
      await db.query<{ n: string }>(
        `SELECT count(DISTINCT contract_id) AS n FROM idx_changes WHERE from_addr = $1 OR to_addr = $1`,
        [Buffer.from(wallet.address.slice(2), 'hex')],
      )
    ).rows[0]!.n,
  );
  report.info(
    bench,
    'the busiest contract: changes of hands, sales; the busiest wallet: changes, contracts',
    `${count(subject.counts.changes)}, ${count(subject.counts.sales)}; ` +
      `${count(wallet.changes)}, ${count(contractsOfBusiest)}`,
  );
  const targets: QueryTarget[] = [{ label: 'tables', db }];
  const partitions = scalePartitions();
  let partitioned: pg.Pool | undefined;
  try {
    if (partitions > 0) {
      log(`${bench}: the same rows in tables of ${partitions} hash partitions`);
      const made = await partitionedCopy(db, partitions);
      report.info(
        bench,
        `partitioned copy (${partitions} by hash of the contract): made in; size on disk, tables / partitioned`,
        `${ms(made.ms, 0)}; ${round(made.plainMb, 0)} / ${round(made.partitionedMb, 0)} MB`,
      );
      partitioned = new pg.Pool({ connectionString: url, max: 4, options: PARTITIONED_PATH });
      targets.push({ label: `${partitions} partitions`, db: partitioned });
    }
    await sharedQueries(queryTimer({ bench, report, deadline, targets }), subject, BUDGET);
  } finally {
    await partitioned?.end();
  }
}
