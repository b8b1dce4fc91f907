/**
 * Load test of the production server over the embedded sample service (`npm run loadtest`;
 * not part of `npm test`). Loopback only, bounded in time and connections.
 *
 *   tsx test/load/loadtest.ts [--connections 200] [--duration 30] [--rate-limit]
 *
 * The server runs in a child process so that its memory is measured apart from ours. The
 * per-client rate limit is switched off for the run (RATE_LIMIT_PER_MINUTE=0): every
 * connection comes from 127.0.0.1, so with the limit on this would measure the limiter,
 * not the server. With --rate-limit it stays on and its 429s are counted as intended.
 * The per-address caps and the budget of server time are off for the same reason
 * (MAX_CONNECTIONS_PER_ADDRESS, MAX_REQUESTS_IN_FLIGHT_PER_ADDRESS and, without
 * --rate-limit, COST_BUDGET_MS_PER_SECOND 0). Figures are printed and written to
 * bench/loadtest.json. A quiet client under floods of costly requests is
 * `npm run loadtest:quiet` (quiet-client.ts).
 */
import type { ChildProcess } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import {
  clientDir,
  percentile,
  random,
  reply,
  round1,
  startChildServer,
  stopChild,
} from './child-server';

const { values: flags } = parseArgs({
  options: {
    connections: { type: 'string', default: '200' },
    duration: { type: 'string', default: '30' },
    'rate-limit': { type: 'boolean', default: false },
  },
});
const CONNECTIONS = Math.min(1000, Math.max(1, Number(flags.connections)));
const DURATION_S = Math.min(600, Math.max(1, Number(flags.duration)));
const RATE_LIMIT_ON = flags['rate-limit'];
const WARM_UP_S = 5;
const BUDGET = { unintendedErrors: 0, memoryGrowthMb: 50 };
const MB = 1024 * 1024;

interface Memory {
  rss: number;
  heapUsed: number;
  gcAvailable: boolean;
}

// --- the server ------------------------------------------------------------------------

const startServer = (dir: string) =>
  startChildServer(dir, {
    ...(RATE_LIMIT_ON ? {} : { RATE_LIMIT_PER_MINUTE: '0', COST_BUDGET_MS_PER_SECOND: '0' }),
    // Every connection comes from 127.0.0.1: a per-address cap would be what is measured.
    MAX_CONNECTIONS_PER_ADDRESS: '0',
    MAX_REQUESTS_IN_FLIGHT_PER_ADDRESS: '0',
  });

const memoryOf = (child: ChildProcess) => reply<Memory>(child, 'memory', { type: 'memory' });

// --- the client ------------------------------------------------------------------------

interface Answer {
  status: number;
  bytes: number;
  body?: Buffer;
}

function get(agent: Agent, port: number, path: string, keepBody = false): Promise<Answer> {
  return new Promise((resolvePromise, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        path,
        agent,
        // Browsers always ask for compression; discovery asks for plain JSON to read it.
        headers: keepBody ? {} : { 'accept-encoding': 'gzip' },
      },
      (res) => {
        const chunks: Buffer[] = [];
        let bytes = 0;
        res.on('data', (chunk: Buffer) => {
          bytes += chunk.length;
          if (keepBody) chunks.push(chunk);
        });
        res.on('end', () =>
          resolvePromise({
            status: res.statusCode ?? 0,
            bytes,
            ...(keepBody && { body: Buffer.concat(chunks) }),
          }),
        );
        res.on('error', reject);
      },
    );
    req.setTimeout(30_000, () => req.destroy(new Error('client timeout')));
    req.on('error', reject);
    req.end();
  });
}

interface Page {
  result?: Array<Record<string, unknown>>;
  cursor?: string | null;
}

/** Walks the API as a visitor would, to find real contracts, pages and tokens to ask for. */
async function discover(agent: Agent, port: number) {
  const json = async (path: string): Promise<{ page: Page; size: number }> => {
    const answer = await get(agent, port, path, true);
    if (answer.status !== 200) throw new Error(`discovery: ${path} → ${answer.status}`);
    return { page: JSON.parse(answer.body!.toString('utf8')) as Page, size: answer.bytes };
  };
  const pages = async (base: string, count: number) => {
    const paths = [base];
    let cursor = (await json(base)).page.cursor;
    while (cursor && paths.length < count) {
      const path = `${base}?cursor=${encodeURIComponent(cursor)}`;
      paths.push(path);
      cursor = (await json(path)).page.cursor;
    }
    return paths;
  };
  const contractsPage = (await json('/api/v1/contracts')).page;
  const addresses = (contractsPage.result ?? [])
    .map((c) => c.contract_address)
    .filter((a): a is string => typeof a === 'string');
  const contractPaths = await pages('/api/v1/contracts', 3);
  const eventPaths: string[] = [];
  const tokenPaths = new Set<string>();
  let largest = { path: '', size: 0 };
  let active = 0;
  // Collections with activity: an empty one would make the mix lighter than real use.
  for (const address of addresses) {
    if (active === 8) break;
    const first = (await json(`/api/v1/events/${address}`)).page;
    if ((first.result ?? []).length === 0) continue;
    active += 1;
    for (const path of await pages(`/api/v1/events/${address}`, 3)) {
      eventPaths.push(path);
      const { page, size } = await json(path);
      if (size > largest.size) largest = { path, size };
      for (const event of page.result ?? []) {
        const tokenId = event.token_id;
        if (typeof tokenId === 'string' && tokenPaths.size < 80) {
          tokenPaths.add(`/api/v1/events/${address}/${tokenId}`);
        }
      }
    }
  }
  return { contractPaths, eventPaths, tokenPaths: [...tokenPaths], largest };
}

/** What recompressing the largest page per request would cost, against sending stored gzip. */
async function gzipCost(agent: Agent, port: number, path: string) {
  const body = (await get(agent, port, path, true)).body!;
  const rounds = 20;
  const started = performance.now();
  let zipped = 0;
  for (let i = 0; i < rounds; i += 1) {
    const stream = new Blob([new Uint8Array(body)])
      .stream()
      .pipeThrough(new CompressionStream('gzip'));
    zipped = (await new Response(stream).arrayBuffer()).byteLength;
  }
  return {
    pageKb: Math.round(body.length / 1024),
    gzipKb: Math.round(zipped / 1024),
    msPerPage: Math.round(((performance.now() - started) / rounds) * 100) / 100,
  };
}

/** Keep-alive connections, each sending its next request as soon as the last is answered. */
async function drive(port: number, pick: () => string, seconds: number) {
  const agent = new Agent({ keepAlive: true, maxSockets: CONNECTIONS });
  let latencies = new Float64Array(1 << 16);
  let count = 0;
  const statuses = new Map<number, number>();
  const failures = new Map<string, number>();
  let bytes = 0;
  const started = performance.now();
  const end = started + seconds * 1000;
  const worker = async () => {
    while (performance.now() < end) {
      const began = performance.now();
      try {
        const answer = await get(agent, port, pick());
        if (count === latencies.length) {
          const grown = new Float64Array(latencies.length * 2);
          grown.set(latencies);
          latencies = grown;
        }
        latencies[count++] = performance.now() - began;
        bytes += answer.bytes;
        statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
      } catch (error) {
        const key = (error as { code?: string }).code ?? String(error);
        failures.set(key, (failures.get(key) ?? 0) + 1);
      }
    }
  };
  await Promise.all(Array.from({ length: CONNECTIONS }, worker));
  const elapsedS = (performance.now() - started) / 1000;
  agent.destroy();
  return {
    latencies: latencies.slice(0, count),
    count,
    statuses,
    failures,
    bytes,
    elapsedS,
  };
}

// --- the run ---------------------------------------------------------------------------

async function main() {
  const client = clientDir();
  const { child, port } = await startServer(client.dir);
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  try {
    const found = await discover(agent, port);
    const gzip = await gzipCost(agent, port, found.largest.path);
    agent.destroy();
    // Weighted as people browse: mostly a collection's activity, then tokens, then the list.
    const mix: Array<[number, string[]]> = [
      [0.15, found.contractPaths],
      [0.55, found.eventPaths],
      [0.3, found.tokenPaths],
    ];
    const next = random(42);
    const pick = () => {
      let roll = next();
      for (const [weight, paths] of mix) {
        if (roll < weight || paths === mix[mix.length - 1]![1]) {
          return paths[Math.floor(next() * paths.length)]!;
        }
        roll -= weight;
      }
      throw new Error('unreachable');
    };

    // Warm-up, not measured: code, pools and the cache settle before "before" is taken.
    await drive(port, pick, WARM_UP_S);
    const before = await memoryOf(child);
    const loadBefore = loadavg()[0] ?? 0;
    const { latencies, count, statuses, failures, bytes, elapsedS } = await drive(
      port,
      pick,
      DURATION_S,
    );
    const after = await memoryOf(child);

    const sorted = latencies.sort();
    const ok = statuses.get(200) ?? 0;
    const tooMany = statuses.get(429) ?? 0;
    const intended429 = RATE_LIMIT_ON ? tooMany : 0;
    const networkErrors = [...failures.values()].reduce((a, b) => a + b, 0);
    const unintended = count - ok - intended429 + networkErrors;
    const growth = {
      rssMb: round1((after.rss - before.rss) / MB),
      heapMb: round1((after.heapUsed - before.heapUsed) / MB),
    };
    const shutdownStarted = performance.now();
    const exitCode = await stopChild(child);

    const report = {
      date: new Date().toISOString(),
      node: process.version,
      // Other work on the machine skews every figure; this says how busy it was.
      loadAverage1m: { before: round1(loadBefore), after: round1(loadavg()[0] ?? 0) },
      settings: {
        connections: CONNECTIONS,
        durationS: DURATION_S,
        rateLimit: RATE_LIMIT_ON
          ? 'on (server default)'
          : 'off for this run (RATE_LIMIT_PER_MINUTE=0)',
        upstream: 'embedded sample service (deployed profile, seed 1)',
        client: client.stub ? 'stub index.html' : 'dist/client',
        distinctPaths: {
          contracts: found.contractPaths.length,
          contractEvents: found.eventPaths.length,
          tokenEvents: found.tokenPaths.length,
        },
      },
      requests: count,
      throughputPerS: Math.round(count / elapsedS),
      latencyMs: {
        p50: round1(percentile(sorted, 0.5)),
        p90: round1(percentile(sorted, 0.9)),
        p99: round1(percentile(sorted, 0.99)),
        max: round1(sorted[sorted.length - 1] ?? 0),
      },
      statuses: Object.fromEntries(statuses),
      errors: { intended429, unintended, network: Object.fromEntries(failures) },
      receivedMb: round1(bytes / MB),
      server: {
        gcAvailable: after.gcAvailable,
        before: { rssMb: round1(before.rss / MB), heapMb: round1(before.heapUsed / MB) },
        after: { rssMb: round1(after.rss / MB), heapMb: round1(after.heapUsed / MB) },
        growth,
        shutdown: { exitCode, ms: Math.round(performance.now() - shutdownStarted) },
      },
      gzipLargestPage: gzip,
      budgets: {
        unintendedErrors: {
          limit: BUDGET.unintendedErrors,
          actual: unintended,
          ok: unintended <= BUDGET.unintendedErrors,
        },
        memoryGrowthMb: {
          limit: BUDGET.memoryGrowthMb,
          actual: Math.max(growth.rssMb, growth.heapMb),
          ok: Math.max(growth.rssMb, growth.heapMb) < BUDGET.memoryGrowthMb,
        },
      },
    };

    console.log(`\nLoad test: ${CONNECTIONS} connections for ${DURATION_S} s on 127.0.0.1:${port}`);
    console.table({
      requests: { value: report.requests },
      'throughput (req/s)': { value: report.throughputPerS },
      'p50 latency (ms)': { value: report.latencyMs.p50 },
      'p90 latency (ms)': { value: report.latencyMs.p90 },
      'p99 latency (ms)': { value: report.latencyMs.p99 },
      'max latency (ms)': { value: report.latencyMs.max },
      '429 intended': { value: intended429 },
      'unintended errors (budget 0)': { value: unintended },
      'server RSS before → after (MB)': {
        value: `${report.server.before.rssMb} → ${report.server.after.rssMb}`,
      },
      'server heap before → after (MB)': {
        value: `${report.server.before.heapMb} → ${report.server.after.heapMb}`,
      },
      [`gzip of a ${gzip.pageKb} KB page (ms)`]: { value: gzip.msPerPage },
      'SIGTERM → exit (ms, code)': { value: `${report.server.shutdown.ms}, ${exitCode}` },
      'machine load (1 min avg)': {
        value: `${report.loadAverage1m.before} → ${report.loadAverage1m.after}`,
      },
    });
    mkdirSync('bench', { recursive: true });
    writeFileSync('bench/loadtest.json', `${JSON.stringify(report, null, 2)}\n`);
    console.log('Written to bench/loadtest.json');
    const failed = Object.entries(report.budgets).filter(([, budget]) => !budget.ok);
    if (failed.length > 0) {
      console.error(`Over budget: ${failed.map(([name]) => name).join(', ')}`);
      process.exitCode = 1;
    }
  } finally {
    agent.destroy();
    if (child.exitCode === null) child.kill('SIGKILL');
  }
}

await main();
