/**
 * A quiet client under floods of costly requests (`npm run loadtest:quiet`; not part of
 * `npm test`). Loopback only, bounded in time.
 *
 *   tsx test/load/quiet-client.ts [--seconds 12] [--flooders 16] [--only exports]
 *
 * Two production servers run in child processes over the embedded sample service, each
 * with two big collections indexed first: one as shipped (every per-client limit at
 * its default), one without the share of the server's time (COST_BUDGET_MS_PER_SECOND,
 * COSTLY_REQUESTS_AT_ONCE, REQUESTS_AT_ONCE and MAX_REQUESTS_IN_FLIGHT_PER_ADDRESS 0: the count limit
 * alone, as before it). A quiet client (127.0.0.200), in a process of its own so that
 * the floods' answers do not delay its timings, reads a 50-row page of events every
 * 0.5 s, alone, then while `--flooders` clients send costly requests back to back: whole
 * exports, hourly series over random spans (up to the 2,000 buckets an answer holds), holders as of random dates, link preview
 * cards of random tokens. Each flood runs from one address (127.0.0.2) and then from as
 * many addresses as clients (127.0.0.2…), on one server and then the other, so that
 * both are measured side by side on the same machine's load. The quiet client's median
 * and p95 are printed with the floods' answers by status, and written to
 * bench/quiet-client.json.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import type { Agent } from 'node:http';
import { loadavg } from 'node:os';
import { resolve } from 'node:path';
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
import {
  STARKNET_QUEST_ADDRESS,
  STARKVERSE_GALLERY_ADDRESS,
} from '../../src/server/sample-service';
import { agentFrom, get } from './http-get';

const { values: flags } = parseArgs({
  options: {
    seconds: { type: 'string', default: '12' },
    flooders: { type: 'string', default: '16' },
    only: { type: 'string' },
  },
});
const PHASE_S = Math.min(120, Math.max(3, Number(flags.seconds)));
const FLOODERS = Math.min(64, Math.max(1, Number(flags.flooders)));
const QUIET_EVERY_MS = 500;
const QUIET_ADDRESS = '127.0.0.200';
const TARGET = { medianMs: 200, p95Ms: 1000 };
const INDEX_TIMEOUT_MS = 300_000;
const MAX_SERIES_HOURS = 2_000;

async function json<T>(agent: Agent, port: number, path: string): Promise<T> {
  const answer = await get(agent, port, path);
  if (answer.status !== 200) throw new Error(`${path} → ${answer.status}`);
  return JSON.parse(answer.body.toString('utf8')) as T;
}

interface Coverage {
  complete: boolean;
  indexedBack: number | null;
  newest: number | null;
}

/**
 * The sample's busiest collection (StarkVerse Gallery, over 100,000 events) and Starknet
 * Quest, read whole into the index; their spans and some token ids. Named, not taken
 * from the ranking: before anything is indexed it knows no collection's size.
 */
async function prepare(port: number) {
  const agent = agentFrom('127.0.0.1', 4);
  const addresses = [STARKVERSE_GALLERY_ADDRESS, STARKNET_QUEST_ADDRESS];
  const deadline = Date.now() + INDEX_TIMEOUT_MS;
  const targets = [];
  for (const address of addresses) {
    // Any whole-history question starts reading the whole list.
    for (;;) {
      const { coverage } = await json<{ coverage: Coverage }>(
        agent,
        port,
        `/api/collections/${address}/series?interval=month`,
      );
      if (coverage.complete) {
        const events = await json<{ events: Array<{ tokenId: string }> }>(
          agent,
          port,
          `/api/collections/${address}/events?limit=200`,
        );
        targets.push({
          address,
          from: coverage.indexedBack ?? 0,
          to: coverage.newest ?? 0,
          tokens: [...new Set(events.events.map((e) => e.tokenId))],
        });
        break;
      }
      if (Date.now() > deadline) throw new Error(`${address} not indexed in time`);
      await new Promise((done) => setTimeout(done, 1000));
    }
  }
  agent.destroy();
  return targets;
}

type Target = Awaited<ReturnType<typeof prepare>>[number];

type FloodPath = (target: Target, next: () => number) => string;

const FLOODS: Record<string, FloodPath> = {
  'whole exports': (t) => `/api/collections/${t.address}/export`,
  // Spans within what one answer may hold (2,000 hours): the costliest series allowed.
  'hourly series': (t, next) => {
    const from = t.from + Math.floor(next() * (t.to - t.from));
    const hours = 1 + Math.floor(next() * (MAX_SERIES_HOURS - 1));
    return `/api/collections/${t.address}/series?interval=hour&from=${from}&to=${from + hours * 3600}`;
  },
  'holders as of': (t, next) =>
    `/api/collections/${t.address}/holders?asOf=${t.from + Math.floor(next() * (t.to - t.from))}`,
  'preview cards': (t, next) =>
    `/api/preview/collections/${t.address}/tokens/${t.tokens[Math.floor(next() * t.tokens.length)] ?? '1'}.png`,
};

/**
 * The quiet client, in a process of its own (quiet-reader.ts): the floods' answers, read
 * in this process, would otherwise delay its timings on this event loop, not the
 * server's. Resolves once it is ready to read.
 */
async function quietReader() {
  const reader = fork(resolve('test/load/quiet-reader.ts'), [], {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  await reply(reader, 'ready');
  return reader;
}

/** `FLOODERS` clients sending `path()` back to back until `stop`, from `addresses`. */
async function flood(port: number, addresses: string[], path: () => string, stop: Promise<void>) {
  const statuses = new Map<string, number>();
  let stopped = false;
  void stop.then(() => (stopped = true));
  const agents = addresses.map((address) => agentFrom(address, FLOODERS));
  const worker = async (agent: Agent) => {
    while (!stopped) {
      let key: string;
      try {
        key = String((await get(agent, port, path())).status);
      } catch (error) {
        key = (error as { code?: string }).code ?? 'error';
      }
      statuses.set(key, (statuses.get(key) ?? 0) + 1);
    }
  };
  await Promise.all(Array.from({ length: FLOODERS }, (_, i) => worker(agents[i % agents.length]!)));
  for (const agent of agents) agent.destroy();
  return Object.fromEntries(statuses);
}

const seconds = (s: number) => new Promise<void>((done) => setTimeout(done, s * 1000));

/** The quiet client's page every QUIET_EVERY_MS for the phase, beside `floodOf` if any. */
async function phase(
  port: number,
  quietPath: string,
  floodOf?: (stop: Promise<void>) => Promise<unknown>,
) {
  const reader = await quietReader();
  try {
    const stop = seconds(PHASE_S);
    const ask = { port, path: quietPath, address: QUIET_ADDRESS, everyMs: QUIET_EVERY_MS };
    const [measured, flooded] = await Promise.all([
      reply<{ latencies: number[]; statuses: Record<string, number> }>(reader, 'done', {
        ...ask,
        seconds: PHASE_S,
      }),
      floodOf ? floodOf(stop) : Promise.resolve(undefined),
    ]);
    const { latencies, statuses } = measured;
    return {
      samples: latencies.length,
      medianMs: round1(percentile(latencies, 0.5)),
      p95Ms: round1(percentile(latencies, 0.95)),
      maxMs: round1(latencies[latencies.length - 1] ?? 0),
      quietStatuses: statuses,
      ...(flooded !== undefined && { flood: flooded }),
    };
  } finally {
    await stopChild(reader);
  }
}

type Phase = Awaited<ReturnType<typeof phase>>;

const SHARE_OFF = {
  COST_BUDGET_MS_PER_SECOND: '0',
  COSTLY_REQUESTS_AT_ONCE: '0',
  REQUESTS_AT_ONCE: '0',
  MAX_REQUESTS_IN_FLIGHT_PER_ADDRESS: '0',
};

async function main() {
  const client = clientDir();
  const children: ChildProcess[] = [];
  try {
    const servers = [];
    for (const [name, env] of [
      ['shared', {}],
      ['count limit only', SHARE_OFF],
    ] as const) {
      const { child, port } = await startChildServer(client.dir, env);
      children.push(child);
      servers.push({ name, port, targets: await prepare(port) });
    }
    const loadBefore = loadavg()[0] ?? 0;
    const from16 = Array.from({ length: FLOODERS }, (_, i) => `127.0.0.${2 + i}`);
    const scenarios: Array<[string, string[] | undefined, FloodPath | undefined]> = [
      ['alone', undefined, undefined],
    ];
    for (const [addresses, label] of [
      [['127.0.0.2'], '1 address'],
      [from16, `${FLOODERS} addresses`],
    ] as const) {
      for (const [kind, pathOf] of Object.entries(FLOODS)) {
        if (flags.only !== undefined && !kind.includes(flags.only)) continue;
        scenarios.push([`${kind}, ${label}`, [...addresses], pathOf]);
      }
    }
    const rows: Record<string, Record<string, Phase>> = {};
    for (const [name, addresses, pathOf] of scenarios) {
      for (const server of servers) {
        const { port, targets } = server;
        const quietPath = `/api/collections/${targets[0]!.address}/events?limit=50`;
        const next = random(7);
        const pick = () => pathOf!(targets[Math.floor(next() * targets.length)]!, next);
        (rows[name] ??= {})[server.name] = await phase(
          port,
          quietPath,
          addresses && ((stop) => flood(port, addresses, pick, stop)),
        );
        // The floods' last answers drained, the next phase starts from a quiet server.
        await seconds(2);
      }
    }
    const report = {
      date: new Date().toISOString(),
      node: process.version,
      loadAverage1m: { before: round1(loadBefore), after: round1(loadavg()[0] ?? 0) },
      settings: {
        phaseSeconds: PHASE_S,
        flooders: FLOODERS,
        quietEveryMs: QUIET_EVERY_MS,
        client: client.stub ? 'stub index.html' : 'dist/client',
        collections: servers[0]!.targets.map((t) => t.address),
      },
      target: TARGET,
      phases: rows,
    };
    console.log(`\nA quiet client's 50-row page under floods of ${FLOODERS} clients`);
    const alone = rows['alone']!;
    console.table(
      Object.fromEntries(
        Object.entries(rows).map(([name, byServer]) => {
          const shared = byServer['shared']!;
          const before = byServer['count limit only']!;
          return [
            name,
            {
              'before: median / p95 (ms)': `${before.medianMs} / ${before.p95Ms}`,
              'shared: median / p95 (ms)': `${shared.medianMs} / ${shared.p95Ms}`,
              'before / alone': round1(
                before.medianMs / Math.max(1, alone['count limit only']!.medianMs),
              ),
              'shared / alone': round1(shared.medianMs / Math.max(1, alone['shared']!.medianMs)),
              target:
                shared.medianMs <= TARGET.medianMs && shared.p95Ms <= TARGET.p95Ms
                  ? 'met'
                  : 'MISSED',
              'flood answers: before': JSON.stringify(before.flood ?? {}),
              'flood answers: shared': JSON.stringify(shared.flood ?? {}),
            },
          ];
        }),
      ),
    );
    mkdirSync('bench', { recursive: true });
    writeFileSync('bench/quiet-client.json', `${JSON.stringify(report, null, 2)}\n`);
    console.log('Written to bench/quiet-client.json');
  } finally {
    for (const child of children) await stopChild(child);
  }
}

await main();
