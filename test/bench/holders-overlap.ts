import { createSampleService, generateDataset } from '../../src/server/sample-service';
import { indexedProxy } from '../support/indexed-proxy';
import { createDatabase, databaseUrl, startPostgres } from '../support/postgres-server';
import { sampleUpstream } from '../support/sample-upstream';
import type { BenchContext } from './context';
import { count, ms, percentile, round, time } from './lib/stats';

type Context = Pick<BenchContext, 'report' | 'deadline' | 'log'>;

const BENCH = 'overlap';
const ROUNDS = 40;
// The overlap answer's budget, p95: figures of both collections and its first page.
const BUDGET_MS = 300;

/**
 * overlap. Who holds the two busiest collections of the default sample (seed 1, 50
 * contracts, 320,000 events), both indexed on a PostgreSQL of its own: the overlap answer
 * (`GET …/holders/overlap/:other`: the counts of each and of both, and the first 50
 * wallets), against its budget; beside it, what the holders also hold and the comparison
 * of two days, with only those two collections indexed.
 */
export async function holdersOverlap({ report, deadline, log }: Context): Promise<void> {
  const dataset = generateDataset();
  const [first, second] = [...dataset.contracts].sort((a, b) => b.eventCount - a.eventCount);
  log(
    `overlap: indexing ${first!.name} (${count(first!.eventCount)} events) and ${second!.name} (${count(second!.eventCount)})`,
  );
  const cleanups: (() => Promise<unknown>)[] = [];
  const server = await startPostgres();
  cleanups.push(() => server.stop());
  try {
    const url = databaseUrl(server.url, await createDatabase(server.url, 'bench'));
    const upstream = sampleUpstream(
      createSampleService({ apiKey: 'k', profile: 'deployed', dataset }),
    );
    const { proxy } = await indexedProxy({
      url,
      upstream,
      cleanups,
      settings: { headIntervalMs: 3_600_000 },
    });
    await (await proxy.app.request('/api/collections')).arrayBuffer();
    for (const contract of [first!, second!]) await proxy.indexer.whole(contract.address).done;
    const base = `/api/collections/${first!.address}/holders`;
    const ask = async (path: string) => {
      const response = await proxy.app.request(path);
      if (response.status !== 200) throw new Error(`${path}: ${response.status}`);
      return (await response.json()) as Record<string, number>;
    };
    const overlapPath = `${base}/overlap/${second!.address}`;
    const answer = await ask(overlapPath);
    log(
      `overlap: ${count(answer.holders!)} and ${count(answer.otherHolders!)} holders, ${count(answer.inCommon!)} hold both`,
    );
    const { lastActivity } = (await ask(`/api/collections/${first!.address}`))
      .figures as unknown as {
      lastActivity: number;
    };
    const day = (seconds: number) => new Date(seconds * 1000).toISOString().slice(0, 10);
    const comparePath = `${base}/compare?from=${day(lastActivity - 30 * 86_400)}&to=${day(lastActivity)}`;
    const times = { overlap: [] as number[], alsoHold: [] as number[], compare: [] as number[] };
    for (let round_ = 0; round_ < ROUNDS && !deadline.passed(); round_++) {
      times.overlap.push((await time(() => ask(overlapPath))).ms);
      times.alsoHold.push((await time(() => ask(`${base}/also-hold`))).ms);
      if (round_ % 4 === 0) times.compare.push((await time(() => ask(comparePath))).ms);
    }
    const p = (values: number[], at: number) => ms(percentile(values, at), 1);
    const p95 = percentile(times.overlap, 95);
    report.budget(
      BENCH,
      `overlap of the two busiest sample collections (${count(answer.inCommon!)} wallets hold both), p50 / p95 of ${times.overlap.length}`,
      `${p(times.overlap, 50)} / ${p(times.overlap, 95)}`,
      `p95 ≤ ${BUDGET_MS} ms`,
      p95 <= BUDGET_MS,
    );
    report.info(
      BENCH,
      'what the busiest collection’s holders also hold (two collections indexed), p50 / p95',
      `${p(times.alsoHold, 50)} / ${p(times.alsoHold, 95)}`,
    );
    report.info(
      BENCH,
      `its holders at two days 30 days apart compared, p50 / p95 of ${times.compare.length}`,
      `${p(times.compare, 50)} / ${p(times.compare, 95)}`,
    );
    report.set('overlap.p95Ms', round(p95, 1));
    report.set('overlap.p50Ms', round(percentile(times.overlap, 50), 1));
  } finally {
    for (const close of cleanups.reverse()) await close().catch(() => undefined);
  }
}
