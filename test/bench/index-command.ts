import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import { loadavg } from 'node:os';
import { resolve } from 'node:path';
import type { BenchContext } from './context';
import { dataDir, startSampleService, type Running } from './lib/processes';
import { count, round } from './lib/stats';

/**
 * ingest. End to end: `npm run index -- --all` over the standalone sample service (its
 * scale shape: 20 contracts, 50,000 events, unthrottled), each run into a fresh DATA_DIR
 * (its embedded PostgreSQL): the contracts one at a time (`--at-once 1`, the default)
 * against three at once, alternated, two runs each, changes of hands a second as the
 * command counts them, the ratio of the two, measured side by side in this run, and the
 * faster against the issue's budget. A run in which a walk failed is shown and left out of
 * the rates.
 */
const bench = 'ingest';
const CONTRACTS = 20;
const EVENTS = 50_000;
const ROUNDS = 2;
const AT_ONCE = [1, 3];
const BUDGET_CHANGES_PER_SECOND = 50_000;

type Context = Pick<BenchContext, 'report' | 'deadline' | 'log'>;

interface Run {
  seconds: number;
  changes: number;
  failed: boolean;
  /** Why a walk stopped, as the command said it. */
  stopped?: string;
}

/** One `npm run index -- --all --at-once N` into a fresh DATA_DIR; what it printed last. */
function indexAll(service: Running, key: string, atOnce: number): Promise<Run> {
  const dir = dataDir('bench-ingest-');
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', resolve('src/server/index-cli.ts'), '--all', '--at-once', String(atOnce)],
    {
      env: {
        ...process.env,
        TOKEN_EVENTS_API_URL: service.url,
        TOKEN_EVENTS_API_KEY: key,
        DATA_DIR: dir,
        UPSTREAM_RATE_PER_SECOND: '0',
        UPSTREAM_MONTHLY_QUOTA: '0',
        IMAGE_PROXY: 'off',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return new Promise((done, fail) => {
    child.once('error', fail);
    child.once('exit', (code) => {
      rmSync(dir, { recursive: true, force: true });
      const last = /All done in ([\d.]+) s: \d+ records, (\d+) changes of hands/.exec(output);
      if (!last) return fail(new Error(`npm run index printed no total:\n${output.slice(-2000)}`));
      const stopped = /stopped: (.*)/.exec(output)?.[1];
      done({
        seconds: Number(last[1]),
        changes: Number(last[2]),
        failed: code !== 0,
        ...(stopped && { stopped }),
      });
    });
  });
}

export async function indexCommand({ report, deadline, log }: Context): Promise<void> {
  const key = randomBytes(12).toString('hex');
  log(`${bench}: starting the sample service (${CONTRACTS} contracts, ${count(EVENTS)} events)`);
  const service = await startSampleService({
    key,
    contracts: CONTRACTS,
    events: EVENTS,
    shape: 'scale',
  });
  try {
    const runs = new Map<number, Run[]>(AT_ONCE.map((atOnce) => [atOnce, []]));
    const load = [loadavg()[0] ?? 0];
    for (let round_ = 0; round_ < ROUNDS && !deadline.passed(); round_++) {
      // Alternated, the order reversed each round: both meet the same neighbours' load.
      const order = round_ % 2 === 0 ? AT_ONCE : [...AT_ONCE].reverse();
      for (const atOnce of order) {
        log(`${bench}: npm run index -- --all --at-once ${atOnce} (round ${round_ + 1})`);
        runs.get(atOnce)!.push(await indexAll(service, key, atOnce));
        load.push(loadavg()[0] ?? 0);
      }
    }
    // Runs that stopped short (a walk failed) count apart: their rate is not comparable.
    const rate = (list: Run[]) => {
      const whole = list.filter((run) => !run.failed);
      const seconds = whole.reduce((sum, run) => sum + run.seconds, 0);
      return seconds > 0 ? whole.reduce((sum, run) => sum + run.changes, 0) / seconds : NaN;
    };
    const describe = (run: Run) =>
      `${round(run.seconds, 1)} s for ${count(run.changes)}` +
      (run.failed ? `, a walk failed (${run.stopped ?? 'no reason given'}): left out` : '');
    for (const [atOnce, list] of runs) {
      report.info(
        bench,
        `npm run index -- --all --at-once ${atOnce}: changes of hands a second (each run)`,
        `${Number.isNaN(rate(list)) ? 'no whole run' : count(rate(list))} (${list.map(describe).join('; ')})`,
      );
    }
    const [one, many] = AT_ONCE.map((atOnce) => rate(runs.get(atOnce)!));
    const loads = load.map((value) => round(value, 1)).join(' → ');
    report.info(
      bench,
      `contracts ${AT_ONCE[1]} at once / one at a time, whole runs, end to end (load ${loads})`,
      Number.isNaN(many! / one!) ? 'no whole run of both' : `${round(many! / one!, 2)}×`,
    );
    const best = Math.max(...[one!, many!].filter((rate) => !Number.isNaN(rate)), 0);
    report.budget(
      bench,
      `ingest end to end, the faster of the two (load ${loads})`,
      `${count(best)} changes of hands/s`,
      `≥ ${count(BUDGET_CHANGES_PER_SECOND)}/s`,
      best >= BUDGET_CHANGES_PER_SECOND,
    );
    report.set('ingest.endToEnd', Object.fromEntries(runs));
  } finally {
    await service.stop();
  }
}
