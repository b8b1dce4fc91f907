import { afterEach, describe, expect, it } from 'vitest';
import { createSampleService, generateDataset } from '../../../src/server/sample-service';
import { indexedProxy } from '../../support/indexed-proxy';
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
    const service = createSampleService({ apiKey: 'k', profile: 'deployed', dataset });
    const { proxy } = await indexedProxy({
      url: database.url,
      upstream: sampleUpstream(service),
      cleanups,
    });
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
