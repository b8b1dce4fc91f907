import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { Agent, createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { generateDataset, servedRecordCount } from '../../src/server/sample-service';
import { startPostgres, type PostgresServer } from '../support/postgres-server';
import type { BenchContext } from './context';
import { withPageParams } from './lib/http';
import { dataDir, startProductionServer, startSampleService, type Running } from './lib/processes';
import { count, median, ms, percentile, round } from './lib/stats';

/**
 * 8. The record log against a stand-in with the real service's behaviour: a new random
 * cursor for every page, the basic plan's throttle (5 requests a second, burst 2, 429
 * beyond), about 80 ms a page; a dataset of 100,000 events, whose five busiest collections
 * hold about 120,000 records. Each server spends the upstream at the plan's rate, as
 * against the real service, and no background indexing. Every upstream request passes a
 * recording front in this process, which keeps its path.
 * (a) five collections indexed whole through the query API (what share of the rate the
 *     indexer reaches); the server restarted on the same DATA_DIR once its lists' heads are
 *     due again (HEAD_READ_SECONDS, 5 s), and asked 20 whole-history questions about them
 *     at once (overview, events by price, holders, series, market: each kind four times,
 *     each collection four questions): every upstream request must be a head read, one
 *     per list (each collection's newest page, the contracts list);
 * (b) on the restarted server, /api/v1 pages of the busiest collection served from the
 *     log (100 records, and 1 MB) against the same sizes straight from the stand-in: p50
 *     and p95 of each; a whole walk of the stored list and its upstream requests;
 * (c) three servers on one PostgreSQL, ten walks of a list nobody has read spread over
 *     them: upstream requests a second (the servers share one budget).
 */
const bench = '8 log';
const EVENTS = 100_000;
const COLLECTIONS = 5;
const RATE = 5;
const LATENCY_MS = 80;
const HEAD_INTERVAL_MS = 5_000;
const WALK_LIMIT = 5000;
const LOG_PAGES = 100;
const UPSTREAM_PAGES = 20;
const UPSTREAM_BIG_PAGES = 8;
// Below the stand-in's 5 a second: the direct pages are timed, not throttled.
const UPSTREAM_PACE_MS = 250;

type Question = 'overview' | 'events by price' | 'holders' | 'series' | 'market';
const QUESTIONS: Record<Question, (address: string) => string> = {
  overview: (address) => `/api/collections/${address}`,
  'events by price': (address) => `/api/collections/${address}/events?sort=-price`,
  holders: (address) => `/api/collections/${address}/holders`,
  series: (address) => `/api/collections/${address}/series?interval=day`,
  market: (address) => `/api/collections/${address}/market`,
};
const KINDS = Object.keys(QUESTIONS) as Question[];

interface Coverage {
  complete?: boolean;
  records?: number;
}

/**
 * What an upstream request read: a list's head (its first page, and the pages after it
 * while the head read goes on past what is stored: their cursors came from that read)
 * or its depth (a cursor from an earlier read: the log's frontier, a verification).
 */
type ReadKind = 'contracts list' | 'head' | 'head, more pages' | 'deeper' | 'other';

interface Arrival {
  at: number;
  path: string;
  kind: ReadKind;
}

// The cursor at the end of a page's JSON (the sample service puts it last).
const TRAILING_CURSOR = /"cursor"\s*:\s*"([^"]+)"\s*}\s*$/;

/**
 * A front for the stand-in that records every request passed on (the servers are pointed
 * at it): its path, and whether it reads a list's head, following the cursors the
 * stand-in gives in this front's answers; and how many are still being answered.
 */
async function recordingFront(target: string) {
  const arrivals: Arrival[] = [];
  // Cursors given in answers to head reads (or to their later pages).
  const headCursors = new Set<string>();
  let inFlight = 0;
  const agent = new Agent({ keepAlive: true });
  const server: Server = createServer((incoming, outgoing) => {
    const path = incoming.url ?? '/';
    const url = new URL(path, 'http://front');
    const cursor = url.searchParams.get('cursor');
    const kind: ReadKind =
      url.pathname === '/v1/contracts'
        ? 'contracts list'
        : !url.pathname.startsWith('/v1/events/')
          ? 'other'
          : cursor === null
            ? 'head'
            : headCursors.has(cursor)
              ? 'head, more pages'
              : 'deeper';
    arrivals.push({ at: Date.now(), path, kind });
    inFlight += 1;
    const done = () => {
      inFlight -= 1;
    };
    const forwarded = request(
      `${target}${path}`,
      { method: incoming.method, headers: incoming.headers, agent },
      (answer) => {
        outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(outgoing);
        if (kind === 'head' || kind === 'head, more pages') {
          let tail = '';
          answer.on('data', (chunk: Buffer) => {
            tail = (tail + chunk.toString('latin1')).slice(-400);
          });
          answer.once('end', () => {
            const next = TRAILING_CURSOR.exec(tail)?.[1];
            if (next) headCursors.add(next);
          });
        }
        answer.once('end', done);
        answer.once('error', done);
      },
    );
    forwarded.once('error', () => {
      done();
      outgoing.destroy();
    });
    incoming.pipe(forwarded);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    arrivals,
    inFlight: () => inFlight,
    /** Resolves once no request has been in flight or arrived for `quietMs` (or `maxMs`). */
    async settled(quietMs: number, maxMs: number) {
      const until = Date.now() + maxMs;
      let quietSince = Date.now();
      let seen = arrivals.length;
      while (Date.now() < until) {
        if (inFlight > 0 || arrivals.length !== seen) {
          quietSince = Date.now();
          seen = arrivals.length;
        } else if (Date.now() - quietSince >= quietMs) return;
        await sleep(50);
      }
    },
    stop: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      agent.destroy();
    },
  };
}

const sleep = (milliseconds: number) =>
  new Promise((resolve) => setTimeout(resolve, Math.max(0, milliseconds)));

const seconds = (milliseconds: number) => `${round(milliseconds / 1000, 1)} s`;
const p50p95 = (times: readonly number[]) =>
  `${ms(median(times), 1)} / ${ms(percentile(times, 95), 1)}`;

interface Walk {
  ms: number;
  pages: number;
  records: number;
  failed?: string;
}

/**
 * Every page of a contract's events through `/api/v1`, the largest pages, the next asked
 * for as soon as a page's headers name its cursor.
 */
async function walk(base: string, address: string, within: number): Promise<Walk> {
  const started = performance.now();
  let pages = 0;
  let records = 0;
  const ask = (cursor: string | null) => {
    pages += 1;
    const path = withPageParams(`/api/v1/events/${address}`, cursor, WALK_LIMIT);
    return fetch(base + path, { signal: AbortSignal.timeout(within) });
  };
  const elapsed = () => performance.now() - started;
  try {
    let pending: Promise<Response> | null = ask(null);
    while (pending) {
      const response: Response = await pending;
      if (!response.ok) {
        return { ms: elapsed(), pages, records, failed: `status ${response.status}` };
      }
      const early = response.headers.get('x-next-cursor');
      pending = early ? ask(early) : null;
      const body = (await response.json()) as { result?: unknown[]; cursor?: string | null };
      records += body.result?.length ?? 0;
      if (!early && body.cursor) pending = ask(body.cursor);
    }
  } catch (error) {
    return { ms: elapsed(), pages, records, failed: String(error) };
  }
  return { ms: elapsed(), pages, records };
}

/**
 * Pages of a list one after another, following cursors, each timed from its request to
 * its last byte; `paceMs` apart at least, and a throttled page asked again after a pause.
 */
async function timedPages(options: {
  base: string;
  path: string;
  limit: number;
  pages: number;
  headers?: Record<string, string>;
  paceMs?: number;
  within: number;
}): Promise<{ times: number[]; bytes: number[] }> {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const times: number[] = [];
  const bytes: number[] = [];
  const stopAt = Date.now() + options.within;
  let cursor: string | null = null;
  try {
    while (times.length < options.pages && Date.now() < stopAt) {
      const started = Date.now();
      const url = options.base + withPageParams(options.path, cursor, options.limit);
      let text = '';
      const timed = await new Promise<{ ms: number; status: number }>((done, fail) => {
        const start = performance.now();
        const req = request(url, { agent, headers: options.headers ?? {} }, (res) => {
          res.setEncoding('utf8');
          res.on('data', (chunk: string) => (text += chunk));
          res.on('end', () => done({ ms: performance.now() - start, status: res.statusCode ?? 0 }));
          res.on('error', fail);
        });
        req.on('error', fail);
        req.end();
      });
      if (timed.status === 429) {
        await sleep(1_000);
        continue;
      }
      if (timed.status !== 200) throw new Error(`GET ${url}: ${timed.status}`);
      times.push(timed.ms);
      bytes.push(Buffer.byteLength(text));
      cursor = (JSON.parse(text) as { cursor?: string | null }).cursor || null;
      if (!cursor) break;
      if (options.paceMs) await sleep(options.paceMs - (Date.now() - started));
    }
  } finally {
    agent.destroy();
  }
  return { times, bytes };
}

/** The most requests that arrived within any one second: calendar seconds, and any 1,000 ms. */
function perSecond(arrivals: readonly number[]): { calendar: number; sliding: number } {
  const bySecond = new Map<number, number>();
  for (const time of arrivals) {
    const second = Math.floor(time / 1000);
    bySecond.set(second, (bySecond.get(second) ?? 0) + 1);
  }
  const sorted = [...arrivals].sort((a, b) => a - b);
  let sliding = 0;
  for (let start = 0, end = 0; end < sorted.length; end++) {
    while (sorted[end]! - sorted[start]! >= 1000) start++;
    sliding = Math.max(sliding, end - start + 1);
  }
  return { calendar: Math.max(0, ...bySecond.values()), sliding };
}

async function answerOf(url: string, within: number) {
  const response = await fetch(url, { signal: AbortSignal.timeout(within) });
  const body = (await response.json()) as { coverage?: Coverage };
  return { status: response.status, coverage: body.coverage };
}

export async function recordLog(context: BenchContext): Promise<void> {
  const { report, log, deadline, clientDir } = context;
  log('8. the record log (stand-in: random cursors, 5 req/s burst 2, 80 ms, 100,000 events)');
  const dataset = generateDataset({ seed: 1, events: EVENTS });
  const collections = [...dataset.contracts]
    .sort((x, y) => y.eventCount - x.eventCount)
    .slice(0, COLLECTIONS);
  if (collections.length < COLLECTIONS) throw new Error('the dataset lacks five collections');
  const recordsOf = (contract: (typeof collections)[number]) =>
    servedRecordCount(dataset, 'deployed', { contract });
  const [busiest] = collections;
  const key = randomBytes(12).toString('hex');
  const standIn = await startSampleService({
    key,
    events: EVENTS,
    latencyMs: LATENCY_MS,
    throttle: { perSecond: RATE, burst: 2 },
  });
  const front = await recordingFront(standIn.url);
  const server = (env: Record<string, string>) =>
    startProductionServer({
      clientDir,
      upstreamUrl: front.url,
      key,
      env: { UPSTREAM_RATE_PER_SECOND: String(RATE), ...env },
    });
  const figures: Record<string, unknown> = {
    collections: collections.map((contract) => ({
      address: contract.address,
      events: contract.eventCount,
      records: recordsOf(contract),
    })),
  };
  const started: Running[] = [];
  let postgres: PostgresServer | undefined;
  try {
    // (a) Five collections indexed whole: the first question about each starts its walk.
    const logDir = dataDir('bench-log-8-');
    const first = await server({ DATA_DIR: logDir });
    started.push(first);
    const indexStart = performance.now();
    const before = front.arrivals.length;
    const pending = new Set(collections.map((contract) => contract.address));
    while (pending.size > 0 && deadline.left() > 60_000) {
      for (const address of [...pending]) {
        const answer = await answerOf(`${first.url}${QUESTIONS.overview(address)}`, 30_000);
        if (answer.coverage?.complete) pending.delete(address);
      }
      if (pending.size > 0) await sleep(250);
    }
    const indexMs = performance.now() - indexStart;
    if (pending.size > 0) throw new Error(`(a) ${pending.size} collections not indexed in time`);
    const indexRequests = front.arrivals.length - before;
    const share = indexRequests / RATE / (indexMs / 1000);
    const records = collections.reduce((sum, contract) => sum + recordsOf(contract), 0);
    report.budget(
      bench,
      '(a) the indexer reads five collections whole: share of the rate',
      `${count(records)} records, ${indexRequests} upstream requests in ${seconds(indexMs)} (the rate alone: ${round(indexRequests / RATE, 1)} s): ${round(share, 2)}`,
      '≥ 0.95',
      share >= 0.95,
    );
    figures.index = { ms: indexMs, requests: indexRequests, share, records };

    // The restart, once every list's head is due again.
    await first.stop();
    await front.settled(200, 10_000);
    const lastRead = front.arrivals.at(-1)?.at ?? Date.now();
    await sleep(lastRead + HEAD_INTERVAL_MS + 500 - Date.now());
    const again = await server({ DATA_DIR: logDir });
    started.push(again);
    const mark = front.arrivals.length;
    const asked = Array.from({ length: 4 * COLLECTIONS }, (_, index) => {
      const contract = collections[index % COLLECTIONS]!;
      const kind = KINDS[(index + Math.floor(index / COLLECTIONS)) % KINDS.length]!;
      return { contract, kind, url: `${again.url}${QUESTIONS[kind](contract.address)}` };
    });
    const questionsStart = performance.now();
    const answers = await Promise.all(
      asked.map(async (question) => {
        const start = performance.now();
        const answer = await answerOf(question.url, deadline.within(60_000));
        return { ...question, ...answer, ms: performance.now() - start };
      }),
    );
    const questionsMs = performance.now() - questionsStart;
    // A question reads its collection's head without waiting for it: let those end.
    await front.settled(1_000, 15_000);
    const arrived = front.arrivals.slice(mark);
    const paths = arrived.map((arrival) => arrival.path);
    const reads = arrived.map((arrival) => arrival.kind);
    const byKind = (kind: ReadKind) => reads.filter((read) => read === kind).length;
    const heads = byKind('head');
    const headPages = byKind('head, more pages');
    const listings = byKind('contracts list');
    const others = reads.length - heads - headPages - listings;
    // Each list's head is read once while it is due; the questions may outlast the interval.
    const rounds = 1 + Math.floor(questionsMs / HEAD_INTERVAL_MS);
    const expected = (COLLECTIONS + 1) * rounds;
    const failed = answers.filter((answer) => answer.status !== 200);
    // While a head read goes on past its first page, the history has a gap: not whole.
    const answeredWhole = answers.filter((answer) => answer.coverage?.complete).length;
    const otherPaths = arrived
      .filter((arrival) => arrival.kind === 'deeper' || arrival.kind === 'other')
      .map((arrival) => arrival.path);
    report.budget(
      bench,
      `(a) after a restart on the same DATA_DIR, ${answers.length} whole-history questions about ${COLLECTIONS} indexed collections: upstream requests`,
      `${reads.length}: ${heads} collection heads (and ${headPages} more page${headPages === 1 ? '' : 's'} of those reads), ${listings} contracts list, ${others} other` +
        (otherPaths.length > 0
          ? ` (${otherPaths.map((path) => path.slice(0, 60)).join(', ')})`
          : '') +
        `; ${answers.length - failed.length} of ${answers.length} answered, ${answeredWhole} whole, in ${ms(questionsMs, 0)}`,
      `head reads only, ≤ ${expected} (each collection's head and the contracts list once${rounds > 1 ? ` in each ${HEAD_INTERVAL_MS / 1000} s` : ''})`,
      others === 0 && heads + listings <= expected && failed.length === 0,
    );
    const times = answers.map((answer) => answer.ms);
    report.info(
      bench,
      '(a) those questions, asked at once: p50 / p95 / slowest',
      `${p50p95(times)} / ${ms(Math.max(...times), 0)} (${KINDS.map((kind) => `${kind} ${ms(median(answers.filter((answer) => answer.kind === kind).map((answer) => answer.ms)), 0)}`).join(', ')})`,
    );
    figures.questions = {
      ms: questionsMs,
      requests: reads.length,
      heads,
      headPages,
      listings,
      others,
      answeredWhole,
      expected,
      paths,
      answers: answers.map(({ kind, contract, status, ms: took }) => ({
        kind,
        address: contract.address,
        status,
        ms: took,
      })),
    };

    // (b) /api/v1 pages from the log against the same sizes straight from the stand-in.
    const path = `/api/v1/events/${busiest!.address}`;
    const upstreamPath = `/v1/events/${busiest!.address}`;
    const beforeLog = front.arrivals.length;
    const logStart = performance.now();
    const fromLog = await timedPages({
      base: again.url,
      path,
      limit: 100,
      pages: LOG_PAGES + 1,
      within: deadline.within(30_000),
    });
    const whole = await walk(again.url, busiest!.address, deadline.within(60_000));
    await front.settled(200, 5_000);
    const logMs = performance.now() - logStart;
    const logReads = front.arrivals.slice(beforeLog).map((arrival) => arrival.kind);
    const logRequests = logReads.length;
    // The list's head, read when due: once, or once more each head interval.
    const logHeads = 1 + Math.floor(logMs / HEAD_INTERVAL_MS);
    if (whole.failed) throw new Error(`(b) the walk of the stored list failed: ${whole.failed}`);
    const bigFromLog = await timedPages({
      base: again.url,
      path,
      limit: WALK_LIMIT,
      pages: 1_000,
      within: deadline.within(30_000),
    });
    const direct = await timedPages({
      base: standIn.url,
      path: upstreamPath,
      limit: 100,
      pages: UPSTREAM_PAGES + 1,
      headers: { 'x-api-key': key },
      paceMs: UPSTREAM_PACE_MS,
      within: deadline.within(30_000),
    });
    const bigDirect = await timedPages({
      base: standIn.url,
      path: upstreamPath,
      limit: WALK_LIMIT,
      pages: UPSTREAM_BIG_PAGES + 1,
      headers: { 'x-api-key': key },
      paceMs: UPSTREAM_PACE_MS,
      within: deadline.within(30_000),
    });
    // Pages after a cursor: a first page reads the list's head when it is due.
    const later = (pages: number[]) => pages.slice(1);
    const mean = (values: number[]) =>
      values.reduce((sum, value) => sum + value, 0) / Math.max(1, values.length);
    report.info(
      bench,
      '(b) /api/v1 pages of 100 records, p50 / p95: from the log; straight from the service',
      `${p50p95(later(fromLog.times))} (${later(fromLog.times).length} pages); ${p50p95(later(direct.times))} (${later(direct.times).length} pages)`,
    );
    report.info(
      bench,
      '(b) pages of up to 5,000 records (1 MB), p50 / p95: from the log; straight from the service',
      `${p50p95(later(bigFromLog.times))} (${later(bigFromLog.times).length} pages, ${round(mean(later(bigFromLog.bytes)) / 1024, 0)} KB); ${p50p95(later(bigDirect.times))} (${later(bigDirect.times).length} pages, ${round(mean(later(bigDirect.bytes)) / 1024, 0)} KB)`,
    );
    report.budget(
      bench,
      '(b) the restarted server: 100 pages and a whole walk of a stored list, upstream requests',
      `${logRequests} (the walk: ${count(whole.records)} records, ${whole.pages} pages in ${ms(whole.ms, 0)}; all in ${seconds(logMs)})`,
      `head reads only, ≤ ${logHeads} (the list's head, when due)`,
      logReads.every((read) => read === 'head' || read === 'head, more pages') &&
        logReads.filter((read) => read === 'head').length <= logHeads &&
        whole.records === recordsOf(busiest!),
    );
    figures.pages = {
      log100Ms: fromLog.times,
      log1MbMs: bigFromLog.times,
      upstream100Ms: direct.times,
      upstream1MbMs: bigDirect.times,
      walk: whole,
      upstreamRequests: logRequests,
    };
    await again.stop();

    // (c) Three servers on one PostgreSQL, ten walks spread over them, of a list none has.
    if (deadline.left() < 60_000) {
      report.note("8 (c): skipped, the run's deadline is near.");
    } else {
      const listOf = collections[2]!;
      postgres = await startPostgres();
      const shared = await Promise.all(
        [1, 2, 3].map(() => server({ DATABASE_URL: postgres!.url })),
      );
      started.push(...shared);
      const since = Date.now();
      const walks = await Promise.all(
        Array.from({ length: 10 }, async (_, index) => {
          await sleep(index * 300);
          return walk(shared[index % 3]!.url, listOf.address, deadline.within(120_000));
        }),
      );
      const stats = (await (
        await fetch(`${standIn.url}/_control/stats?since=${since}`, {
          headers: { 'x-api-key': key },
        })
      ).json()) as { throttled: number; arrivals?: number[] };
      const rate = perSecond(stats.arrivals ?? []);
      const failures = walks
        .filter((result) => result.failed || result.records !== recordsOf(listOf))
        .map((result) => result.failed ?? `${result.records} of ${recordsOf(listOf)} records`);
      const failed = failures.length;
      report.budget(
        bench,
        '(c) 3 servers on one PostgreSQL, 10 walks: most upstream requests in a second',
        `${rate.calendar} (any 1,000 ms: ${rate.sliding}); ${stats.arrivals?.length} requests, ${stats.throttled} throttled in all; ${failed} walks failed${failed > 0 ? ` (${[...new Set(failures)].join('; ').slice(0, 200)})` : ''}; slowest ${ms(Math.max(...walks.map((w) => w.ms)), 0)}`,
        '≤ 5, none failed',
        rate.calendar <= RATE && failed === 0,
      );
      figures.shared = {
        ...rate,
        requests: stats.arrivals?.length,
        failed,
        failures,
        walkMs: walks.map((w) => w.ms),
      };
    }
  } finally {
    await Promise.all(started.map((target) => target.stop()));
    await front.stop();
    await standIn.stop();
    await postgres?.stop();
    report.set('recordLog', figures);
  }
}
