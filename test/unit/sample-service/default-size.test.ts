import { describe, expect, it } from 'vitest';
import { generateDataset, type Dataset } from '../../../src/server/sample-service';
import { eventsPath, get, services, type Json } from './helpers';

/**
 * The full-size dataset the app uses by default. Timings are printed for the report,
 * never asserted: the machine running the tests decides them.
 */
describe('the default dataset', () => {
  let data: Dataset;

  it('is generated (time and memory printed)', () => {
    const before = process.memoryUsage();
    const started = performance.now();
    data = generateDataset();
    const elapsed = performance.now() - started;
    const after = process.memoryUsage();
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
    const counts = data.contracts.map((contract) => contract.eventCount).sort((a, b) => b - a);
    expect(counts[0]).toBeGreaterThanOrEqual(110_000);
    expect(counts.filter((count) => count >= 100_000).length).toBeGreaterThanOrEqual(2);
    expect(counts.filter((count) => count > 0 && count < 1_000).length).toBeGreaterThanOrEqual(30);
    expect(counts.filter((count) => count === 0).length).toBeGreaterThanOrEqual(2);
  });

  it('serves page 1,000 at limit 100 about as fast as page 1 (timings printed)', async () => {
    const { documented } = services(data);
    const busiest = [...data.contracts].sort((a, b) => b.eventCount - a.eventCount)[0];
    const path = `${eventsPath(busiest?.address ?? '')}?limit=100`;
    const page = async (cursor?: string): Promise<Json> =>
      JSON.parse((await get(documented, cursor ? `${path}&cursor=${cursor}` : path)).text) as Json;

    let cursor: string | undefined;
    for (let n = 1; n < 1_000; n += 1) cursor = String((await page(cursor)).cursor);
    const deep = await page(cursor);
    expect(deep.result).toHaveLength(100);
    expect(typeof deep.cursor).toBe('string');

    const median = async (cursorAt?: string): Promise<number> => {
      const times: number[] = [];
      for (let n = 0; n < 25; n += 1) {
        const started = performance.now();
        await page(cursorAt);
        times.push(performance.now() - started);
      }
      return times.sort((a, b) => a - b)[12] ?? 0;
    };
    const first = await median();
    const thousandth = await median(cursor);
    console.log(
      `contract with ${busiest?.eventCount} events, limit 100: page 1 ${first.toFixed(2)} ms, ` +
        `page 1,000 ${thousandth.toFixed(2)} ms (median of 25)`,
    );
  }, 60_000);
});
