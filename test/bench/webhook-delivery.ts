import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadavg } from 'node:os';
import pg from 'pg';
import { migrate } from '../../src/server/database/migrations';
import { createDeliverer, DEFAULT_DELIVERER } from '../../src/server/webhooks/deliverer';
import { newSecret } from '../../src/server/webhooks/signature';
import { hex64, ingestPages, recordsOf, WALLETS, ZERO } from '../unit/index/history';
import { createDatabase, databaseUrl, startPostgres } from '../support/postgres-server';
import type { BenchContext } from './context';
import { ms, percentile, round } from './lib/stats';

type Context = Pick<BenchContext, 'report' | 'deadline' | 'log'>;

const BENCH = 'webhooks';
const ROUNDS = 30;
const BURST = 50;
const BUDGET_MS = 5_000;
const MAX_PAUSE_MS = 500;

/**
 * webhooks. From the commit that stores a change of hands to its delivery's arrival at a
 * local receiver (node:http on 127.0.0.1): the server's own deliverer with its default
 * settings (woken by the outbox's notice), a wallet rule watching. One event a commit,
 * each after the last one's arrival and an idle pause of 0 to 500 ms (seeded), so a commit
 * meets the deliverer anywhere in its wait as a real one does (without it, a commit would
 * come at one moment of a poll's cycle and hide or exaggerate it); then one commit of 50
 * events, to its last arrival.
 */
export async function webhookDelivery({ report, deadline, log }: Context): Promise<void> {
  const load = loadavg()[0] ?? 0;
  log(`webhooks: ${ROUNDS} single events, then ${BURST} in one commit (load ${round(load)})`);
  const cleanups: (() => Promise<unknown>)[] = [];
  const postgres = await startPostgres();
  cleanups.push(() => postgres.stop());
  try {
    const url = databaseUrl(postgres.url, await createDatabase(postgres.url, 'bench'));
    const pool = new pg.Pool({ connectionString: url });
    cleanups.push(() => pool.end());
    await migrate(pool);
    const arrivals = new Map<string, number>();
    let arrived: (() => void) | undefined;
    const server = createServer((request, response) => {
      request.resume();
      request.on('end', () => {
        arrivals.set(String(request.headers['webhook-id']), performance.now());
        response.writeHead(204).end();
        arrived?.();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    cleanups.push(() => new Promise((resolve) => server.close(resolve)));
    const { port } = server.address() as AddressInfo;
    const wallet = WALLETS[0]!;
    await pool.query(
      `INSERT INTO webhook_subscriptions (url, secret, rule, collection, created_at)
       VALUES ($1, $2, $3, NULL, 0)`,
      [`http://127.0.0.1:${port}/`, newSecret(), JSON.stringify({ kind: 'wallet', wallet })],
    );
    const deliverer = createDeliverer(pool, { ...DEFAULT_DELIVERER, allowPrivate: true });
    deliverer.start();
    cleanups.push(() => deliverer.stop());
    /** Until `count` deliveries have arrived (or the deadline). */
    const until = (count: number) =>
      new Promise<void>((resolve) => {
        const check = () => {
          if (arrivals.size >= count || deadline.passed()) resolve();
        };
        arrived = check;
        check();
      });
    let tx = 0;
    const mintPage = (token: number) =>
      recordsOf([
        {
          kind: 'mint',
          token,
          from: ZERO,
          to: wallet,
          ts: 1_700_000_000 + token,
          tx: hex64(BigInt(++tx)),
        },
      ]);
    const latencies: number[] = [];
    let seed = 1;
    const pause = () => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      return new Promise((resolve) => setTimeout(resolve, seed % MAX_PAUSE_MS));
    };
    for (let round = 0; round < ROUNDS && !deadline.passed(); round += 1) {
      await pause();
      await ingestPages(pool, [mintPage(round + 1)]);
      const committed = performance.now();
      await until(round + 1);
      latencies.push(Math.max(...arrivals.values()) - committed);
    }
    const burst = Array.from({ length: BURST }, (_, i) => mintPage(ROUNDS + 1 + i)).flat();
    const before = arrivals.size;
    await ingestPages(pool, [burst]);
    const committed = performance.now();
    await until(before + BURST);
    const burstMs = Math.max(...arrivals.values()) - committed;
    const worst = Math.max(...latencies);
    report.budget(
      BENCH,
      `commit to arrival, one event a commit (${latencies.length}): p50 / p95 / max`,
      `${ms(percentile(latencies, 50))} / ${ms(percentile(latencies, 95))} / ${ms(worst)}`,
      `max ≤ ${BUDGET_MS / 1000} s`,
      worst <= BUDGET_MS,
    );
    report.budget(
      BENCH,
      `commit to the last arrival, ${BURST} events in one commit`,
      ms(burstMs),
      `≤ ${BUDGET_MS / 1000} s`,
      arrivals.size === before + BURST && burstMs <= BUDGET_MS,
    );
    report.info(
      BENCH,
      'load average (1 min) before / after',
      `${round(load)} / ${round(loadavg()[0] ?? 0)}`,
    );
  } finally {
    for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined);
  }
}
