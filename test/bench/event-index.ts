import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import pg from 'pg';
import { readPageEnvelope } from '../../src/lib/page';
import { migrate } from '../../src/server/database/migrations';
import { overview } from '../../src/server/index/figures';
import { createPreviews } from '../../src/server/preview/previews';
import { market } from '../../src/server/index/market';
import { createIngest, type Ingest } from '../../src/server/index/ingest';
import type { EventsQuery } from '../../src/server/index/events-query';
import type { KeysetValues } from '../../src/server/index/keyset';
import { series } from '../../src/server/index/series';
import { tokenHistory } from '../../src/server/index/token';
import { walletInCollection } from '../../src/server/index/wallet-collection';
import { washFlagsOf } from '../../src/server/index/wash-flags';
import { STARKNET_QUEST_ADDRESS } from '../../src/server/sample-service';
import { readListPage, type RecordIdentity } from '../../src/server/log/list-page';
import { startPostgres, type PostgresServer } from '../support/postgres-server';
import type { BenchContext } from './context';
import { startSampleService, type Running } from './lib/processes';
import {
  eventsOf,
  positions,
  priceOrder,
  queryTimer,
  querySubject,
  RUNS,
  sharedQueries,
  spanStart,
  spread,
  TIME_ORDER,
} from './lib/index-queries';
import { count, ms, round } from './lib/stats';

/**
 * index. The event index in PostgreSQL (src/server/index) on one contract of 1,000,000
 * events from the sample service (a dataset of that one contract), on the tests' own
 * embedded PostgreSQL:
 * (a) ingest: every page of the contract (5,000 records asked, the service's 1 MB cap)
 *     through `onCommit` in a transaction, as the record log commits them; the calls alone
 *     and the whole loop (reading the page from the service included);
 * (b) server time of the query API's functions, p50/p95 over varied cursors and filters;
 * (c) RSS of this process and of the PostgreSQL server's processes afterwards.
 * A second, small dataset of the same seed (so the same wallets) adds other contracts,
 * for a wallet's events across contracts.
 */
const bench = 'index';
const EVENTS = 1_000_000;
const OTHER_EVENTS = 60_000;
const PAGE_LIMIT = 5000;
const PAGE = 50;
const DAY = 86_400;

const BUDGET = {
  changesPerSecond: 50_000,
  eventsP95Ms: 50,
  overviewMs: 100,
  seriesDayMs: 200,
  holdersNowMs: 100,
  holdersAsOfMs: 200,
  marketMs: 300,
  walletInCollectionMs: 200,
  previewCachedMs: 300,
  memoryMb: 400,
};

type Context = Pick<BenchContext, 'report' | 'deadline' | 'log'>;

interface Walked {
  pages: number;
  records: number;
  /** Rows written or joined, as onCommit counts them (a twin joined later counts again). */
  touched: number;
  onCommitMs: number;
  loopMs: number;
}

/**
 * Every page of one list into the index, as the record log commits pages: the texts of
 * the page's records (each new to the list: one walk of the service sends each once) and
 * the list's state after the commit.
 */
async function walkInto(
  pool: pg.Pool,
  ingest: Ingest,
  service: { url: string; key: string },
  path: string,
  identity: RecordIdentity,
): Promise<Walked> {
  const walked: Walked = { pages: 0, records: 0, touched: 0, onCommitMs: 0, loopMs: 0 };
  const started = performance.now();
  let cursor: string | null = null;
  do {
    const query = `limit=${PAGE_LIMIT}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
    const response = await fetch(`${service.url}${path}?${query}`, {
      headers: { 'x-api-key': service.key },
    });
    if (!response.ok) throw new Error(`${path}: status ${response.status}`);
    const body = Buffer.from(await response.arrayBuffer());
    const envelope = readPageEnvelope(JSON.parse(body.toString()));
    if (!envelope) throw new Error(`${path}: not a page`);
    const page = readListPage(envelope, identity, body);
    const next = walked.records + page.records.length;
    const client = await pool.connect();
    try {
      await client.query('BEGIN');
      const texts = page.records.map((record) => Buffer.from(record.json).toString());
      const start = performance.now();
      const stats = await ingest.onCommit(client, path, texts, {
        complete: !page.cursor,
        records: next,
      });
      walked.onCommitMs += performance.now() - start;
      await client.query('COMMIT');
      walked.touched += stats?.changes ?? 0;
    } catch (error) {
      await client.query('ROLLBACK');
      throw error;
    } finally {
      client.release();
    }
    walked.pages += 1;
    walked.records = next;
    cursor = page.cursor;
  } while (cursor);
  walked.loopMs = performance.now() - started;
  return walked;
}

const readProc = (pid: string, file: string) => {
  try {
    return readFileSync(`/proc/${pid}/${file}`, 'utf8');
  } catch {
    return '';
  }
};
/** The fields of /proc/<pid>/stat after the command's name: [0] is field 3 (state). */
const statFields = (pid: string) => readProc(pid, 'stat').split(') ')[1]?.split(' ') ?? [];

/** The PostgreSQL server on `port`: its postmaster, then the postmaster's children. */
function postgresPids(port: string): string[] {
  const pids = readdirSync('/proc').filter((name) => /^\d+$/.test(name));
  const postmaster = pids.find((pid) => {
    const argv = readProc(pid, 'cmdline').split('\0');
    return argv[0]?.endsWith('/postgres') && argv[argv.indexOf('-p') + 1] === port;
  });
  if (!postmaster) throw new Error(`no postgres process listens on port ${port}`);
  return [postmaster, ...pids.filter((pid) => statFields(pid)[1] === postmaster)];
}

/** RSS and PSS (shared pages split between their users) of the server's processes. */
export function postgresMemory(port: string): { rssMb: number; pssMb: number; processes: number } {
  const kb = (text: string, field: string) =>
    Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(text)?.[1] ?? 0);
  const pids = postgresPids(port);
  let rss = 0;
  let pss = 0;
  for (const pid of pids) {
    rss += kb(readProc(pid, 'status'), 'VmRSS');
    pss += kb(readProc(pid, 'smaps_rollup'), 'Pss');
  }
  return { rssMb: rss / 1024, pssMb: pss / 1024, processes: pids.length };
}

/** CPU seconds the server has used: its processes', and its children's that have ended. */
export function postgresCpuSeconds(port: string): number {
  const [postmaster, ...children] = postgresPids(port);
  // utime, stime, cutime, cstime are fields 14–17, in clock ticks (100 a second).
  const ticks = (pid: string, fields: number) =>
    statFields(pid)
      .slice(11, 11 + fields)
      .reduce((sum, value) => sum + Number(value), 0);
  return (ticks(postmaster!, 4) + children.reduce((sum, pid) => sum + ticks(pid, 2), 0)) / 100;
}

export async function eventIndex(context: Context): Promise<void> {
  const { report, deadline, log } = context;
  const key = randomBytes(12).toString('hex');
  let postgres: PostgresServer | undefined;
  let pool: pg.Pool | undefined;
  const services: Running[] = [];
  try {
    log(`${bench}: the sample service (one contract, ${count(EVENTS)} events) and PostgreSQL`);
    const [started, main, other] = await Promise.all([
      startPostgres(),
      startSampleService({ key, contracts: 1, events: EVENTS }),
      startSampleService({ key, contracts: 6, events: OTHER_EVENTS }),
    ]);
    postgres = started;
    services.push(main, other);
    pool = new pg.Pool({ connectionString: postgres.url, max: 4 });
    const db = pool;
    await migrate(db);
    const sharedBuffers = (await db.query<{ shared_buffers: string }>('SHOW shared_buffers'))
      .rows[0]!.shared_buffers;
    const ingest = createIngest(db);

    log(`${bench}: (a) ingesting the contract`);
    for (const service of services) {
      await walkInto(db, ingest, { url: service.url, key }, '/v1/contracts', 'contract');
    }
    const port = new URL(postgres.url).port;
    const [nodeCpu, postgresCpu] = [process.cpuUsage(), postgresCpuSeconds(port)];
    const walked = await walkInto(
      db,
      ingest,
      { url: main.url, key },
      `/v1/events/${STARKNET_QUEST_ADDRESS}`,
      'event',
    );
    const changes = Number(
      (
        await db.query<{ n: string }>(
          `SELECT count(*) AS n FROM idx_changes c JOIN idx_contracts ic ON ic.id = c.contract_id
           WHERE ic.address = $1`,
          [STARKNET_QUEST_ADDRESS],
        )
      ).rows[0]!.n,
    );
    const nodeCpuUsed = process.cpuUsage(nodeCpu);
    const cpu = {
      node: (nodeCpuUsed.user + nodeCpuUsed.system) / 1e6,
      postgres: postgresCpuSeconds(port) - postgresCpu,
    };
    const rssAfterIngest = process.memoryUsage.rss();
    const rate = changes / (walked.onCommitMs / 1000);
    report.info(
      bench,
      '(a) one contract: pages / records / changes of hands',
      `${count(walked.pages)} / ${count(walked.records)} / ${count(changes)}`,
    );
    report.budget(
      bench,
      '(a) ingest (onCommit): seconds, changes/s',
      `${round(walked.onCommitMs / 1000, 1)} s, ${count(rate)}/s`,
      `≥ ${count(BUDGET.changesPerSecond)}/s`,
      rate >= BUDGET.changesPerSecond,
    );
    report.info(
      bench,
      '(a) whole loop (read the page, cut it, onCommit, commit): seconds, changes/s',
      `${round(walked.loopMs / 1000, 1)} s, ${count(changes / (walked.loopMs / 1000))}/s`,
    );
    report.info(
      bench,
      '(a) CPU in the loop: Node + PostgreSQL; changes per CPU second',
      `${round(cpu.node, 1)} s + ${round(cpu.postgres, 1)} s; ${count(changes / (cpu.node + cpu.postgres))}`,
    );
    report.set('index.ingest', {
      ...walked,
      changes,
      cpu,
      changesPerSecond: rate,
      pageLimit: PAGE_LIMIT,
    });

    const others = (
      await db.query<{ address: string }>(
        `SELECT address FROM idx_contracts WHERE address <> $1 ORDER BY address`,
        [STARKNET_QUEST_ADDRESS],
      )
    ).rows;
    for (const { address } of others) {
      await walkInto(db, ingest, { url: other.url, key }, `/v1/events/${address}`, 'event');
    }
    await Promise.all(services.map((service) => service.stop()));
    services.length = 0;
    // Autovacuum would do as much within minutes of such a load; the queries meet the
    // statistics and visibility map of a settled table.
    const vacuum = performance.now();
    await db.query('VACUUM ANALYZE');
    report.info(bench, '(a) VACUUM ANALYZE afterwards', ms(performance.now() - vacuum, 0));

    log(`${bench}: (b) queries`);
    const id = (
      await db.query<{ id: number }>('SELECT id FROM idx_contracts WHERE address = $1', [
        STARKNET_QUEST_ADDRESS,
      ])
    ).rows[0]!.id;
    const subject = await querySubject(db, id);
    const { newest } = subject;
    const wallets = subject.wallets.map((wallet) => wallet.address);
    const within = (run: number, length: number) => spanStart(subject, run, length);
    const tokens = (
      await db.query<{ token: string }>(
        `SELECT token_id::text AS token FROM idx_tokens WHERE contract_id = $1
         ORDER BY md5(token_id::text) LIMIT ${RUNS}`,
        [id],
      )
    ).rows.map((row) => row.token);
    const cursors = {
      priceAsc: await positions(db, id, priceOrder(false), spread(subject.counts.priced)),
      kind: await positions(
        db,
        id,
        { columns: 'c.kind, c.ts::text, c.id::text', order: 'c.kind, c.ts DESC, c.id DESC' },
        spread(subject.counts.changes),
      ),
      token: await positions(
        db,
        id,
        { columns: 'c.token_id::text, c.id::text', order: 'c.token_id, c.id' },
        spread(subject.counts.changes),
      ),
      washless: await positions(
        db,
        id,
        { ...TIME_ORDER, where: 'c.wash = 0' },
        spread(subject.counts.changes),
      ),
    };
    const flagged = (
      await db.query<{ n: string }>(
        'SELECT count(*) AS n FROM idx_changes WHERE contract_id = $1 AND wash <> 0',
        [id],
      )
    ).rows[0]!.n;
    report.info(
      bench,
      '(b) sales flagged as wash trades (stored at ingest) / sales',
      `${count(Number(flagged))} / ${count(subject.counts.sales)}`,
    );

    const measure = queryTimer({
      bench,
      prefix: '(b) ',
      report,
      deadline,
      targets: [{ label: 'index', db }],
    });
    const events = (query: Partial<EventsQuery>, after: KeysetValues | null = null) =>
      eventsOf(db, subject, query, after);
    const e = BUDGET.eventsP95Ms;
    await sharedQueries(measure, subject, BUDGET);
    await measure(
      'events by price, pages 0–95% deep',
      (_, run) => events({ sort: { id: 'price', desc: false } }, cursors.priceAsc[run]!),
      e,
    );
    await measure(
      'events by kind, pages 0–95% deep',
      (_, run) => events({ sort: { id: 'kind', desc: false } }, cursors.kind[run]!),
      e,
    );
    await measure(
      'events by token, pages 0–95% deep',
      (_, run) => events({ sort: { id: 'token', desc: false } }, cursors.token[run]!),
      e,
    );
    // The flags of a page of sales as a query would compute them, with the rule ingest
    // stores them by; the pages above read them stored.
    const salePages: string[][] = [];
    for (const cursor of subject.cursors.sales) {
      salePages.push((await events({ kinds: ['sale'] }, cursor)).rows.map((row) => row.id));
    }
    await measure(
      `wash flags of a page of ${PAGE} sales computed at query time`,
      (_, run) =>
        db.query(washFlagsOf('idx_changes c', 'c.id = ANY($1::bigint[])'), [salePages[run]]),
      e,
    );
    await measure(
      'events newest first, wash=exclude, pages 0–95% deep',
      (_, run) => events({ excludeWash: true }, cursors.washless[run]!),
      e,
    );
    await measure(
      'a busy wallet inside the contract (wallet-collection.ts)',
      (_, run) => walletInCollection(db, wallets[run]!, id, { now: newest }),
      BUDGET.walletInCollectionMs,
    );
    await measure(
      'overview, wash=exclude',
      () => overview(db, id, { excludeWash: true }),
      BUDGET.overviewMs,
    );
    await measure(
      'series by day, whole history, wash=exclude',
      () => series(db, id, 'day', { excludeWash: true }),
      BUDGET.seriesDayMs,
    );
    await measure('series by hour, a 30-day span', (_, run) =>
      series(db, id, 'hour', { from: within(run, 30 * DAY), to: within(run, 30 * DAY) + 30 * DAY }),
    );
    await measure(
      'market, whole history, flagged sales left out',
      () => market(db, id, { excludeWash: true }),
      BUDGET.marketMs,
    );
    await measure('market, a 30-day span on whole hours', (_, run) =>
      market(db, id, { from: within(run, 30 * DAY), to: within(run, 30 * DAY) + 30 * DAY }),
    );
    // Off the hour the marketplaces' shares are read from the rows, not the hourly totals.
    await measure('market, a 30-day span off the hour', (_, run) =>
      market(db, id, {
        from: within(run, 30 * DAY) + 1,
        to: within(run, 30 * DAY) + 30 * DAY + 1,
      }),
    );
    await measure('token history', (_, run) => tokenHistory(db, id, tokens[run]!));
    // The collection's link-preview image: read, laid out and rendered by a server that has
    // not drawn it yet, then from the image cache, its figures read anew each time (as
    // they are once the few seconds that a read is reused for have passed).
    const image = `/api/preview/collections/${STARKNET_QUEST_ADDRESS}.png`;
    await measure('preview image, rendered (a new server each run)', async () => {
      await (await createPreviews({ pool: db }).app.request(image)).arrayBuffer();
    });
    const previews = createPreviews({ pool: db, layoutTtlMs: 0 });
    await measure(
      'preview image, cached',
      async () => (await previews.app.request(image)).arrayBuffer(),
      BUDGET.previewCachedMs,
    );

    log(`${bench}: (c) memory`);
    const node = process.memoryUsage();
    const database = postgresMemory(port);
    const size = (
      await db.query<{ bytes: string }>(
        `SELECT sum(pg_total_relation_size(oid)) AS bytes FROM pg_class
         WHERE relname IN ('idx_changes', 'idx_tokens', 'idx_hourly', 'idx_contracts')`,
      )
    ).rows[0]!.bytes;
    const mb = (bytes: number) => bytes / 1024 / 1024;
    // Each process's RSS counts every shared-memory page it touched (shared_buffers above
    // all), so a sum of RSS counts them again for each process; PSS counts them once.
    const together = mb(node.rss) + database.pssMb;
    report.budget(
      bench,
      '(c) memory: this Node process (RSS) + PostgreSQL (PSS, all its processes)',
      `${round(mb(node.rss), 0)} MB + ${round(database.pssMb, 0)} MB = ${round(together, 0)} MB`,
      `≤ ${BUDGET.memoryMb} MB`,
      together <= BUDGET.memoryMb,
    );
    report.info(
      bench,
      '(c) PostgreSQL: RSS summed over its processes (shared pages counted in each)',
      `${round(database.rssMb, 0)} MB over ${database.processes} processes`,
    );
    report.info(
      bench,
      '(c) Node RSS after the ingest, heap used at the end; PostgreSQL shared_buffers',
      `${round(mb(rssAfterIngest), 0)} MB, ${round(mb(node.heapUsed), 0)} MB; ${sharedBuffers}`,
    );
    report.info(
      bench,
      '(c) index tables on disk (with indexes)',
      `${round(mb(Number(size)), 0)} MB`,
    );
    report.set('index.memory', {
      nodeRssMb: mb(node.rss),
      nodeRssAfterIngestMb: mb(rssAfterIngest),
      nodeHeapUsedMb: mb(node.heapUsed),
      nodeHeapTotalMb: mb(node.heapTotal),
      nodeExternalMb: mb(node.external),
      postgres: database,
      sharedBuffers,
      tablesMb: mb(Number(size)),
    });
  } finally {
    await pool?.end();
    await Promise.all(services.map((service) => service.stop()));
    await postgres?.stop();
  }
}
