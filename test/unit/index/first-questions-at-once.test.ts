import { describe, expect, it } from 'vitest';
import { generateDataset } from '../../../src/server/sample-service';
import { useIndexedSample } from '../../support/indexed-sample';

const dataset = generateDataset({ seed: 5, contracts: 6, events: 12_000 });
const small = [...dataset.contracts]
  .sort((a, b) => a.eventCount - b.eventCount)
  .find((c) => c.eventCount > 100)!;
const setUp = useIndexedSample(dataset);

describe('first questions about a collection, at once', () => {
  it('are all answered', async () => {
    const { proxy } = await setUp();
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
