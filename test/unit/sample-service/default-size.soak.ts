import { describe, expect, it } from 'vitest';
import {
  generateDataset,
  PROFILES,
  type Dataset,
  type SampleService,
} from '../../../src/server/sample-service';
import { contractRecordsInOrder, eventsPath, get, recordKey, services, type Json } from './helpers';

/**
 * The full-size dataset the app uses by default. Timings are printed for the report,
 * never asserted: the machine running the tests decides them.
 */
describe('the default dataset', () => {
  // Each test stands alone: the first to need the dataset generates it.
  let shared: Dataset | undefined;
  const defaultDataset = (): Dataset => (shared ??= generateDataset());

  it('is generated (time and memory printed)', () => {
    const before = process.memoryUsage();
    const started = performance.now();
    const data = generateDataset();
    const elapsed = performance.now() - started;
    const after = process.memoryUsage();
    shared ??= data;
    const mb = (bytes: number): string => (bytes / 2 ** 20).toFixed(1);
    console.log(
      `default dataset: ${data.contracts.length} contracts, ${data.eventCount} events, ` +
        `${data.tokenCount} tokens in ${elapsed.toFixed(0)} ms; ` +
        `heap +${mb(after.heapUsed - before.heapUsed)} MB, ` +
        `array buffers +${mb(after.arrayBuffers - before.arrayBuffers)} MB`,
    );
    expect(data.contracts).toHaveLength(50);
    expect(data.eventCount).toBe(320_000);
  }, 30_000);

  it('has power-law activity: a few huge contracts, many small, some idle', () => {
    const counts = defaultDataset()
      .contracts.map((contract) => contract.eventCount)
      .sort((a, b) => b - a);
    expect(counts[0]).toBeGreaterThanOrEqual(110_000);
    expect(counts.filter((count) => count >= 100_000).length).toBeGreaterThanOrEqual(2);
    expect(counts.filter((count) => count > 0 && count < 1_000).length).toBeGreaterThanOrEqual(30);
    expect(counts.filter((count) => count === 0).length).toBeGreaterThanOrEqual(2);
  }, 30_000);

  it('serves page 1,001 of its busiest contract through a deep cursor in both profiles (timings printed)', async () => {
    const data = defaultDataset();
    const busiest = [...data.contracts].sort((a, b) => b.eventCount - a.eventCount)[0]!;
    const path = `${eventsPath(busiest.address)}?limit=100`;
    const byProfile = services(data);
    const page = async (service: SampleService, cursor?: string): Promise<Json> =>
      JSON.parse((await get(service, cursor ? `${path}&cursor=${cursor}` : path)).text) as Json;

    for (const name of PROFILES) {
      const service = byProfile[name];
      const expected = contractRecordsInOrder(data, busiest.index, name);
      let cursor: string | undefined;
      let served = 0;
      for (let n = 0; n < 1_000; n += 1) {
        const body = await page(service, cursor);
        served += (body.result as Json[]).length;
        cursor = String(body.cursor);
      }
      // The deep page holds the records that follow the 1,000 pages before it, in order.
      const deep = await page(service, cursor);
      const records = (deep.result as Json[]).map(recordKey);
      expect(records.length).toBeGreaterThan(0);
      expect(records).toEqual(expected.slice(served, served + records.length));
      expect(typeof deep.cursor).toBe('string');

      const median = async (cursorAt?: string): Promise<number> => {
        const times: number[] = [];
        for (let n = 0; n < 25; n += 1) {
          const started = performance.now();
          await page(service, cursorAt);
          times.push(performance.now() - started);
        }
        return times.sort((a, b) => a - b)[12] ?? 0;
      };
      console.log(
        `${name}: contract with ${busiest.eventCount} events, limit 100: page 1 ` +
          `${(await median()).toFixed(2)} ms, page 1,001 ${(await median(cursor)).toFixed(2)} ms ` +
          '(median of 25)',
      );
    }
  }, 120_000);
});
