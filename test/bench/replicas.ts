import pg from 'pg';
import { createReadPools } from '../../src/server/database/read-pools';
import { createSampleService, generateDataset } from '../../src/server/sample-service';
import { indexedProxy } from '../support/indexed-proxy';
import { createDatabase, databaseUrl, startPostgres } from '../support/postgres-server';
import { startStandby } from '../support/postgres-standby';
import { sampleUpstream } from '../support/sample-upstream';
import type { BenchContext } from './context';
import { median, ms, round, time } from './lib/stats';

type Context = Pick<BenchContext, 'report' | 'deadline' | 'log'>;

const BENCH = 'replicas';
const ROUNDS = 40;
const dataset = generateDataset({ seed: 7, contracts: 2, events: 40_000 });
const busiest = [...dataset.contracts].sort((a, b) => b.eventCount - a.eventCount)[0]!;
const base = `/api/collections/${busiest.address}`;
const ROUTES = [
  base,
  `${base}/holders`,
  `${base}/events?kind=sale&sort=-price&limit=100`,
  `${base}/series?interval=week`,
  `${base}/market`,
];

/**
 * replicas. The query API's answers read from a hot standby (streaming replication from
 * the same binaries, test/support/postgres-standby.ts) beside the same answers read from
 * the primary, over one indexed collection: two proxies on one database, one reading the
 * standby; each round asks every route of both, in alternating order. Also what a fresh
 * choice costs (a request that waited for its own write: the primary's WAL position, then
 * the standby's replay).
 */
export async function replicaReads({ report, deadline, log }: Context): Promise<void> {
  log(`replicas: a primary, a standby, ${busiest.eventCount.toLocaleString('en')} events indexed`);
  const cleanups: (() => Promise<unknown>)[] = [];
  const primary = await startPostgres();
  cleanups.push(() => primary.stop());
  try {
    const standby = await startStandby(primary);
    cleanups.push(() => standby.stop());
    const name = await createDatabase(primary.url, 'bench');
    const url = databaseUrl(primary.url, name);
    const primaryPool = new pg.Pool({ connectionString: url });
    cleanups.push(() => primaryPool.end());
    const reads = createReadPools(primaryPool, {
      urls: [databaseUrl(standby.url, name)],
      noteLagMs: 5_000,
      skipLagMs: 60_000,
    });
    cleanups.push(() => reads.close());
    const upstream = sampleUpstream(
      createSampleService({ apiKey: 'k', profile: 'deployed', dataset }),
    );
    const settings = { headIntervalMs: 3_600_000 };
    const onPrimary = await indexedProxy({ url, upstream, cleanups, settings });
    const onReplica = await indexedProxy({ url, upstream, cleanups, settings, proxy: { reads } });
    await (await onPrimary.proxy.app.request('/api/collections')).arrayBuffer();
    await onPrimary.proxy.indexer.whole(busiest.address).done;
    // The standby has replayed the whole history before anything is timed.
    for (;;) {
      await reads.check();
      if ((await reads.choose({ fresh: true })).replica !== null) break;
      if (deadline.passed()) throw new Error('the standby did not catch up');
    }
    const ask = async (app: typeof onPrimary.proxy.app, path: string) => {
      const response = await app.request(path);
      if (response.status !== 200) throw new Error(`${path}: ${response.status}`);
      await response.arrayBuffer();
    };
    const times = { primary: [] as number[], replica: [] as number[] };
    const fresh: number[] = [];
    for (let round_ = 0; round_ < ROUNDS && !deadline.passed(); round_++) {
      const order =
        round_ % 2 === 0 ? (['primary', 'replica'] as const) : (['replica', 'primary'] as const);
      for (const path of ROUTES) {
        let total = { primary: 0, replica: 0 };
        for (const where of order) {
          const app = where === 'primary' ? onPrimary.proxy.app : onReplica.proxy.app;
          total = { ...total, [where]: (await time(() => ask(app, path))).ms };
        }
        times.primary.push(total.primary);
        times.replica.push(total.replica);
      }
      fresh.push((await time(() => reads.choose({ fresh: true }))).ms);
    }
    const replicaReadsDone = reads.reads()[reads.states()[0]!.name] ?? 0;
    if (replicaReadsDone === 0) throw new Error('no read went to the standby');
    const ratio = median(times.replica) / median(times.primary);
    report.info(
      BENCH,
      `answer read from the standby / from the primary, median over ${times.primary.length} of each (${ROUTES.length} routes, interleaved)`,
      `${ms(median(times.replica), 1)} / ${ms(median(times.primary), 1)} (${round(ratio)}×)`,
    );
    report.info(
      BENCH,
      'a fresh choice after a write of its own (primary WAL position, standby replay), median',
      ms(median(fresh), 2),
    );
    report.set('replicas.ratio', round(ratio, 3));
    report.set('replicas.freshChoiceMs', round(median(fresh), 3));
  } finally {
    for (const close of cleanups.reverse()) await close().catch(() => undefined);
  }
}
