import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import { loadavg } from 'node:os';
import { resolve } from 'node:path';
import type { BenchContext } from './context';
import { dataDir, processCpuMs, startSampleService, type Running } from './lib/processes';
import { count, round } from './lib/stats';

/**
 * ingest. End to end: `npm run index -- --all` over the standalone sample service (its
 * scale shape: 20 contracts, 50,000 events, unthrottled), each run into a fresh DATA_DIR
 * (its embedded PostgreSQL): every page ingested as it commits (the default) against the
 * first reads stored in the log alone and built from it (`--from-log`), one contract at a
 * time, and the latter three at once; alternated, the order reversed each round. Changes
 * of hands a second as the command counts them, the ratios measured side by side in this
 * run, the faster against the budget, and where the CPU went (the command's Node,
 * its embedded PostgreSQL, the sample service). A run in which a walk failed is shown and
 * left out of the rates.
 */
const bench = 'ingest';
// INGEST_CONTRACTS, INGEST_EVENTS and INGEST_ROUNDS change the sample's shape and the runs:
// a few large contracts are where a build from the log can gain on page-by-page ingest.
const CONTRACTS = Number(process.env.INGEST_CONTRACTS ?? 20);
const EVENTS = Number(process.env.INGEST_EVENTS ?? 50_000);
const ROUNDS = Number(process.env.INGEST_ROUNDS ?? 2);
const VARIANTS = [
  { name: 'per page', args: ['--at-once', '1'] },
  { name: 'first read from the log', args: ['--from-log', '--at-once', '1'] },
  { name: 'first read from the log, 3 at once', args: ['--from-log', '--at-once', '3'] },
];
const BUDGET_CHANGES_PER_SECOND = 50_000;

type Context = Pick<BenchContext, 'report' | 'deadline' | 'log'>;

interface Run {
  seconds: number;
  changes: number;
  /** CPU seconds: the command's Node, its embedded PostgreSQL, the sample service. */
  cpu: { node: number; postgres: number; sample: number };
  failed: boolean;
  /** Why a walk stopped, as the command said it. */
  stopped?: string;
}

/** One `npm run index -- --all …args` into a fresh DATA_DIR; what it printed last. */
function indexAll(service: Running, key: string, args: string[]): Promise<Run> {
  const dir = dataDir('bench-ingest-');
  const sampleCpu = processCpuMs(service.child.pid) ?? 0;
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', resolve('src/server/index-cli.ts'), '--all', ...args],
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
      const cpu = /CPU: Node ([\d.]+) s(?:, the embedded PostgreSQL ([\d.]+) s)?/.exec(output);
      done({
        seconds: Number(last[1]),
        changes: Number(last[2]),
        cpu: {
          node: Number(cpu?.[1] ?? NaN),
          postgres: Number(cpu?.[2] ?? NaN),
          sample: ((processCpuMs(service.child.pid) ?? 0) - sampleCpu) / 1000,
        },
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
    const runs = new Map<string, Run[]>(VARIANTS.map((variant) => [variant.name, []]));
    const load = [loadavg()[0] ?? 0];
    for (let round_ = 0; round_ < ROUNDS && !deadline.passed(); round_++) {
      // Alternated, the order reversed each round: each meets the same neighbours' load.
      const order = round_ % 2 === 0 ? VARIANTS : [...VARIANTS].reverse();
      for (const variant of order) {
        log(`${bench}: npm run index -- --all ${variant.args.join(' ')} (round ${round_ + 1})`);
        runs.get(variant.name)!.push(await indexAll(service, key, variant.args));
        load.push(loadavg()[0] ?? 0);
      }
    }
    // Runs that stopped short (a walk failed) count apart: their rate is not comparable.
    const whole = (list: Run[]) => list.filter((run) => !run.failed);
    const sum = (list: Run[], pick: (run: Run) => number) =>
      list.reduce((total, run) => total + pick(run), 0);
    const rate = (list: Run[]) => {
      const seconds = sum(whole(list), (run) => run.seconds);
      return seconds > 0 ? sum(whole(list), (run) => run.changes) / seconds : NaN;
    };
    const describe = (run: Run) =>
      `${round(run.seconds, 1)} s for ${count(run.changes)}` +
      (run.failed ? `, a walk failed (${run.stopped ?? 'no reason given'}): left out` : '');
    const loads = load.map((value) => round(value, 1)).join(' → ');
    for (const [name, list] of runs) {
      report.info(
        bench,
        `${name}: changes of hands a second (each run)`,
        `${Number.isNaN(rate(list)) ? 'no whole run' : count(rate(list))} (${list.map(describe).join('; ')})`,
      );
      const ok = whole(list);
      if (ok.length === 0) continue;
      // Per change of hands: where the CPU went.
      const changes = sum(ok, (run) => run.changes);
      const micros = (pick: (run: Run) => number) => `${count((sum(ok, pick) * 1e6) / changes)} µs`;
      report.info(
        bench,
        `${name}: CPU a change of hands, Node / PostgreSQL / the sample service`,
        `${micros((run) => run.cpu.node)} / ${micros((run) => run.cpu.postgres)} / ` +
          `${micros((run) => run.cpu.sample)}`,
      );
    }
    const rates = VARIANTS.map((variant) => rate(runs.get(variant.name)!));
    const ratio = (a: number, b: number) =>
      Number.isNaN(a / b) ? 'no whole run of both' : `${round(a / b, 2)}×`;
    report.info(
      bench,
      `${VARIANTS[1]!.name} / ${VARIANTS[0]!.name}, end to end (load ${loads})`,
      ratio(rates[1]!, rates[0]!),
    );
    report.info(
      bench,
      `${VARIANTS[2]!.name} / one at a time, end to end (load ${loads})`,
      ratio(rates[2]!, rates[1]!),
    );
    const best = Math.max(...rates.filter((value) => !Number.isNaN(value)), 0);
    report.budget(
      bench,
      `ingest end to end, the fastest (load ${loads})`,
      `${count(best)} changes of hands/s`,
      `≥ ${count(BUDGET_CHANGES_PER_SECOND)}/s`,
      best >= BUDGET_CHANGES_PER_SECOND,
    );
    report.set('ingest.endToEnd', Object.fromEntries(runs));
  } finally {
    await service.stop();
  }
}
