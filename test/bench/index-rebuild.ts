import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { readPageEnvelope } from '../../src/lib/page';
import { migrate } from '../../src/server/database/migrations';
import { createIngest } from '../../src/server/index/ingest';
import { contractEventsPath } from '../../src/server/index/list-path';
import { rebuildIndex, type RebuildStats } from '../../src/server/index/rebuild';
import { readListPage, type RecordIdentity } from '../../src/server/log/list-page';
import { STARKNET_QUEST_ADDRESS } from '../../src/server/sample-service';
import { appendToLog } from '../support/log-records';
import { startPostgres, type PostgresServer } from '../support/postgres-server';
import type { BenchContext } from './context';
import { postgresCpuSeconds } from './event-index';
import { startSampleService, type Running } from './lib/processes';
import { count, round } from './lib/stats';

/**
 * rebuild. The index made again from the record log (src/server/index/rebuild.ts) for one
 * contract of 1,000,000 events from the sample service, on the tests' own PostgreSQL:
 * (a) the log filled as it commits pages (every page of the contract, nothing indexed);
 * (b) a rebuild into an index holding nothing of the contract: every row written;
 * (c) a rebuild over the index (b) made, vacuumed: every row made and compared, none
 *     written;
 * each with records a second, seconds, its phases and the CPU of Node and PostgreSQL;
 * (d) for reference, ingest in the same run: the log's first 100,000 records of the
 *     contract through `onCommit` in pages of the service's size, into a database of
 *     their own (ingest slows as the index grows: its whole-contract rate is lower).
 */
const bench = 'rebuild';
const EVENTS = 1_000_000;
const PAGE_LIMIT = 5000;
const INGEST_SAMPLE = 100_000;
const BUDGET_SECONDS = 60;

type Context = Pick<BenchContext, 'report' | 'deadline' | 'log'>;

/** Every page of one list into the log, as it commits them; the pages' record counts. */
async function fillLog(pool: pg.Pool, url: string, key: string, path: string, id: RecordIdentity) {
  const sizes: number[] = [];
  let cursor: string | null = null;
  do {
    const query = `limit=${PAGE_LIMIT}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
    const response = await fetch(`${url}${path}?${query}`, { headers: { 'x-api-key': key } });
    if (!response.ok) throw new Error(`${path}: status ${response.status}`);
    const body = Buffer.from(await response.arrayBuffer());
    const envelope = readPageEnvelope(JSON.parse(body.toString()));
    if (!envelope) throw new Error(`${path}: not a page`);
    const page = readListPage(envelope, id, body);
    const client = await pool.connect();
    try {
      await client.query('BEGIN');
      await appendToLog(client, path, page.records, !page.cursor);
      await client.query('COMMIT');
    } finally {
      client.release();
    }
    sizes.push(page.records.length);
    cursor = page.cursor;
  } while (cursor);
  return sizes;
}

/** The log's first records of `path` through ingest, in pages of `sizes`: records a second. */
async function ingestRate(source: pg.Pool, target: pg.Pool, path: string, sizes: number[]) {
  const { rows } = await source.query<{ body: Buffer }>(
    `SELECT r.body FROM log_records r JOIN log_lists l ON l.id = r.list_id
     WHERE l.path = $1 ORDER BY r.seq LIMIT $2`,
    [path, INGEST_SAMPLE],
  );
  const texts = rows.map((row) => row.body.toString());
  const ingest = createIngest(target);
  let done = 0;
  let ms = 0;
  for (const size of sizes) {
    if (done >= texts.length) break;
    const page = texts.slice(done, done + size);
    done += page.length;
    const client = await target.connect();
    try {
      await client.query('BEGIN');
      const started = performance.now();
      await ingest.onCommit(client, path, page, { complete: false, records: done });
      ms += performance.now() - started;
      await client.query('COMMIT');
    } finally {
      client.release();
    }
  }
  return { records: done, seconds: ms / 1000 };
}

export async function indexRebuild(context: Context): Promise<void> {
  const { report, log } = context;
  const key = randomBytes(12).toString('hex');
  let postgres: PostgresServer | undefined;
  let service: Running | undefined;
  const pools: pg.Pool[] = [];
  try {
    log(`${bench}: the sample service (one contract, ${count(EVENTS)} events) and PostgreSQL`);
    [postgres, service] = await Promise.all([
      startPostgres(),
      startSampleService({ key, contracts: 1, events: EVENTS }),
    ]);
    const db = new pg.Pool({ connectionString: postgres.url, max: 4 });
    pools.push(db);
    await migrate(db);
    const path = contractEventsPath(STARKNET_QUEST_ADDRESS);

    log(`${bench}: (a) the contract into the record log`);
    const filling = performance.now();
    await fillLog(db, service.url, key, '/v1/contracts', 'contract');
    const sizes = await fillLog(db, service.url, key, path, 'event');
    await service.stop();
    service = undefined;
    report.info(
      bench,
      '(a) the log: pages / records of the contract; seconds to fill it from the service',
      `${count(sizes.length)} / ${count(sizes.reduce((a, b) => a + b, 0))}; ` +
        `${round((performance.now() - filling) / 1000, 1)} s`,
    );

    const port = new URL(postgres.url).port;
    const rebuild = async (id: 'b' | 'c', label: string) => {
      log(`${bench}: (${id}) ${label}`);
      const [node, database, started] = [
        process.cpuUsage(),
        postgresCpuSeconds(port),
        performance.now(),
      ];
      const [stats] = (await rebuildIndex(db, { contract: STARKNET_QUEST_ADDRESS })) as [
        RebuildStats,
      ];
      const seconds = (performance.now() - started) / 1000;
      const nodeUsed = process.cpuUsage(node);
      const cpu = {
        node: (nodeUsed.user + nodeUsed.system) / 1e6,
        postgres: postgresCpuSeconds(port) - database,
      };
      report.set(`rebuild.${id}`, { ...stats, seconds, cpu });
      return { stats, seconds, cpu };
    };
    const phases = ({ ms }: RebuildStats) =>
      Object.entries(ms)
        .map(([phase, value]) => `${phase} ${round(value / 1000, 1)}`)
        .join(', ');
    const describe = (run: Awaited<ReturnType<typeof rebuild>>) =>
      `${round(run.seconds, 1)} s, ${count(run.stats.records / run.seconds)} records/s ` +
      `(${count(run.stats.records)} records, ${count(run.stats.changes)} changes); ` +
      `CPU Node ${round(run.cpu.node, 1)} s + PostgreSQL ${round(run.cpu.postgres, 1)} s; ` +
      `seconds: ${phases(run.stats)}`;

    const built = await rebuild('b', 'rebuild, nothing of the contract indexed');
    report.budget(
      bench,
      '(b) rebuild into an index holding nothing of the contract: every row written',
      describe(built),
      `≤ ${BUDGET_SECONDS} s`,
      built.seconds <= BUDGET_SECONDS,
    );
    // As autovacuum would within minutes: (c) meets a settled table, as a verification
    // pass does, not (b)'s rows just written (no visibility map, hint bits to set).
    const vacuum = performance.now();
    await db.query('VACUUM ANALYZE');
    report.info(
      bench,
      '(b) then VACUUM ANALYZE',
      `${round((performance.now() - vacuum) / 1000, 1)} s`,
    );
    const again = await rebuild('c', 'rebuild over the index (b) made');
    report.budget(
      bench,
      '(c) rebuild over a right index: every row made and compared, none written',
      describe(again),
      `≤ ${BUDGET_SECONDS} s`,
      again.seconds <= BUDGET_SECONDS,
    );

    log(`${bench}: (d) ingest of the log's first ${count(INGEST_SAMPLE)} records, for reference`);
    const target = new pg.Pool({
      connectionString: postgres.url.replace(/\/postgres$/, '/ingest'),
      max: 4,
    });
    await db.query('CREATE DATABASE ingest');
    pools.push(target);
    await migrate(target);
    const ingested = await ingestRate(db, target, path, sizes);
    report.info(
      bench,
      `(d) ingest (onCommit) of the log's first ${count(INGEST_SAMPLE)} records, same run`,
      `${round(ingested.seconds, 1)} s, ${count(ingested.records / ingested.seconds)} records/s ` +
        `(rebuild (b): ${count(built.stats.records / built.seconds)} records/s)`,
    );
    report.set('rebuild.ingest', ingested);
  } finally {
    for (const pool of pools) await pool.end();
    await service?.stop();
    await postgres?.stop();
  }
}
