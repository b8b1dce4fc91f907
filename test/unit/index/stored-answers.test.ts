import { afterEach, describe, expect, it, vi } from 'vitest';
import { createSampleService, generateDataset } from '../../../src/server/sample-service';
import { indexedProxy } from '../../support/indexed-proxy';
import { usePostgresDatabases } from '../../support/postgres-databases';
import { sampleUpstream } from '../../support/sample-upstream';

/**
 * When the service cannot be asked (the key refused, throttled), answers about a
 * collection come from what is stored, and say so and why; once it answers again, they
 * no longer do.
 */
const dataset = generateDataset({ seed: 4, contracts: 3, events: 3_000 });
const contract = dataset.contracts[0]!.address;
const databases = usePostgresDatabases();
const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

interface Coverage {
  complete: boolean;
  upstream: { failure: string; since: string } | null;
  statement: string;
}

describe('answers while the service cannot be asked', () => {
  it.each([
    [403, /refused the server’s API key/],
    [429, /throttl|too many|slow/i],
  ])(
    'say they come from stored data, and why (%i)',
    async (status, reason) => {
      const database = await databases.database();
      cleanups.push(database.drop);
      const service = createSampleService({ apiKey: 'k', profile: 'deployed', dataset });
      const { proxy } = await indexedProxy({
        url: database.url,
        upstream: sampleUpstream(service),
        cleanups,
        settings: { headIntervalMs: 0 },
        proxy: {
          gate: {
            concurrency: 4,
            queueTimeoutMs: 5_000,
            ratePerSecond: 0,
            maxCoolDownMs: 1_000,
            clientShare: 1,
          },
        },
      });
      const coverage = async () => {
        const response = await proxy.app.request(`/api/collections/${contract}`);
        expect(response.status).toBe(200);
        return ((await response.json()) as { coverage: Coverage }).coverage;
      };
      await proxy.indexer!.whole(contract).done;
      await proxy.indexer!.head(contract);
      expect((await coverage()).upstream).toBeNull();

      // Each answer starts a head read when due: the one under way ends before the fault.
      await proxy.indexer!.head(contract);
      service.setFaults({ fault: { type: 'status', status } });
      await proxy.indexer!.head(contract);
      const stored = await coverage();
      expect(stored.complete).toBe(true);
      expect(stored.upstream?.failure).toMatch(reason);
      expect(stored.statement).toMatch(/comes from stored data/);

      service.setFaults(null);
      // A read started under the fault ends first; a 429 then pauses every upstream
      // request for a while: the head is read again once that is over.
      await proxy.indexer!.head(contract);
      await vi.waitFor(() => expect(proxy.stats().gate.coolingDownUntil).toBeUndefined(), {
        timeout: 5_000,
      });
      await proxy.indexer!.head(contract);
      expect((await coverage()).upstream).toBeNull();
    },
    60_000,
  );
});
