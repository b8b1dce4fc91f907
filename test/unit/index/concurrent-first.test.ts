import { afterEach, describe, expect, it } from 'vitest';
import { openIndexedEngine } from '../../../src/server/index/open-index';
import { createProxy } from '../../../src/server/proxy/app';
import { createSampleService, generateDataset } from '../../../src/server/sample-service';
import { storeSecret } from '../../../src/server/store/event-store';
import { usePostgresDatabases } from '../../support/postgres-databases';
import { sampleUpstream } from '../../support/sample-upstream';

const dataset = generateDataset({ seed: 5, contracts: 6, events: 12_000 });
const small = [...dataset.contracts]
  .sort((a, b) => a.eventCount - b.eventCount)
  .find((c) => c.eventCount > 100)!;
const databases = usePostgresDatabases();
const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

describe('first questions about a collection, at once', () => {
  it('are all answered', async () => {
    const database = await databases.database();
    cleanups.push(database.drop);
    const engine = await openIndexedEngine({ connectionString: database.url });
    cleanups.push(() => engine.close());
    const service = createSampleService({ apiKey: 'k', profile: 'deployed', dataset });
    const proxy = createProxy({
      upstream: sampleUpstream(service),
      store: { engine, secret: await storeSecret(engine) },
      index: { pool: engine.pool, backgroundRate: 0 },
      rateLimit: { perMinute: 0, burst: 0 },
    });
    cleanups.push(async () => proxy.stop());
    const answers = await Promise.all(
      [1, 2, 3, 4].map(() =>
        proxy.app.request(`/api/collections/${small.address}/events?sort=-price`),
      ),
    );
    const bodies = await Promise.all(answers.map((a) => a.text()));
    expect(
      answers.map((a) => a.status),
      bodies.join('\n'),
    ).toEqual([200, 200, 200, 200]);
  }, 60_000);
});
