import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { parseBaseUnits } from '../../../src/lib/price';
import { createSampleService, generateDataset } from '../../../src/server/sample-service';
import { createRandom } from '../../../src/server/sample-service/random';
import { indexedProxy } from '../../support/indexed-proxy';
import { countedCurrency, rawRecords } from '../../support/raw-records';
import { usePostgresDatabases } from '../../support/postgres-databases';
import { sampleUpstream } from '../../support/sample-upstream';

/**
 * The whole way in, against the deployed profile: the indexer's walks interleaved with
 * head reads, the service forgetting every cursor, and new events arriving at the head.
 * Whatever the interleaving, the index ends with one row per change of hands, and its
 * figures equal those computed here from the service's own records, walked afresh.
 */
const databases = usePostgresDatabases();
const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

type Step = 'deeper' | 'head' | 'forget' | 'arrive';

describe('walks of the deployed service into the index', () => {
  it('end with one row per change of hands and figures equal to the records', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.constantFrom<Step>('deeper', 'deeper', 'head', 'forget', 'arrive'), {
          minLength: 3,
          maxLength: 14,
        }),
        fc.integer({ min: 1, max: 1_000 }),
        async (steps, seed) => {
          const database = await databases.database();
          cleanups.push(database.drop);
          const dataset = generateDataset({ seed: 11, contracts: 3, events: 15_000 });
          const contract = [...dataset.contracts].sort((a, b) => b.eventCount - a.eventCount)[0]!;
          const service = createSampleService({ apiKey: 'k', profile: 'deployed', dataset });
          // Every head read goes to the service: the head is always due.
          const { proxy } = await indexedProxy({
            url: database.url,
            upstream: sampleUpstream(service),
            cleanups,
            settings: { headIntervalMs: 0 },
          });
          const indexer = proxy.indexer!;
          const random = createRandom(seed);
          let time = Math.max(dataset.anchor, dataset.timestamp(dataset.eventCount - 1));
          for (const step of steps) {
            if (step === 'deeper') await indexer.deeper(contract.address);
            if (step === 'head') await indexer.head(contract.address);
            if (step === 'forget') service.forgetCursors();
            if (step === 'arrive') {
              time += random.int(2);
              const holder = dataset.addMint(
                contract,
                random.int(dataset.walletCount),
                time,
                random,
              );
              const to = (dataset.holder(holder) + 1) % dataset.walletCount;
              dataset.addMove(holder, random.chance(0.5) ? 'sale' : 'transfer', to, time);
            }
          }
          await indexer.head(contract.address);
          const walk = indexer.whole(contract.address);
          await walk.done;
          expect(walk.progress.state).toBe('done');

          const raw = await rawRecords(service, contract.address);
          const sales = raw.filter((record) => record.event_type === 'sale');
          const volume = new Map<string, bigint>();
          for (const sale of sales) {
            const currency = countedCurrency(sale.currency_address);
            volume.set(currency, (volume.get(currency) ?? 0n) + parseBaseUnits(sale.price!)!);
          }
          const response = await proxy.app.request(`/api/collections/${contract.address}`);
          const body = (await response.json()) as {
            figures: {
              events: number;
              sales: number;
              volume: { currency: { address: string | null }; volume: string }[];
            };
            coverage: { complete: boolean };
          };
          expect(body.coverage.complete).toBe(true);
          // A sale is its transfer and its sale record: one change of hands.
          expect(body.figures.events).toBe(raw.length - sales.length);
          expect(body.figures.sales).toBe(sales.length);
          expect(
            new Map(body.figures.volume.map((v) => [v.currency.address, BigInt(v.volume)])),
          ).toEqual(volume);
          for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
        },
      ),
      { numRuns: 6 },
    );
  }, 240_000);
});
