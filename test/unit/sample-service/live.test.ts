import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { tokenIdToDecimal } from '../../../src/lib/token-id';
import {
  createSampleService,
  generateDataset,
  TIMELINE,
  type SampleService,
} from '../../../src/server/sample-service';
import {
  API_KEY,
  contractRecordsInOrder,
  eventsPath,
  get,
  recordKey,
  walk,
  type Json,
} from './helpers';

const MINUTE = 60_000;
/** The service starts 40 minutes after its anchor, as one started at 12:40 is anchored at 12:00. */
const START = (TIMELINE.end + 2_400) * 1000;

describe('live arrivals', () => {
  beforeEach(() => vi.useFakeTimers({ now: START }));
  afterEach(() => vi.useRealTimers());

  /** A dataset of its own: arrivals change it. */
  const liveService = (): SampleService =>
    createSampleService({
      apiKey: API_KEY,
      profile: 'deployed',
      dataset: generateDataset({ seed: 3, contracts: 8, events: 2_000 }),
      live: true,
    });
  const busiest = (service: SampleService) =>
    [...service.dataset.contracts].sort((a, b) => b.eventCount - a.eventCount);

  it('add a handful of events a minute, now, on a few busy contracts', () => {
    const service = liveService();
    const { dataset } = service;
    const generated = dataset.eventCount;
    vi.advanceTimersByTime(10 * MINUTE);
    const added = dataset.eventCount - generated;
    // 6 to 18 seconds apart.
    expect(added).toBeGreaterThanOrEqual(10 * 3);
    expect(added).toBeLessThanOrEqual(10 * 10);
    const receiving = dataset.contracts.filter((contract) => dataset.addedEvents(contract).length);
    expect(receiving.length).toBeGreaterThan(0);
    expect(receiving.length).toBeLessThanOrEqual(3);
    for (const contract of receiving) expect(busiest(service).slice(0, 3)).toContain(contract);
    const events = Array.from({ length: added }, (_, n) => dataset.event(generated + n));
    const kinds = new Set(events.map((event) => event.kind));
    for (const kind of ['mint', 'transfer', 'sale']) expect(kinds).toContain(kind);
    let previous = (START / 1000) | 0;
    for (const event of events) {
      expect(event.timestamp).toBeGreaterThanOrEqual(previous);
      expect(event.timestamp).toBeLessThanOrEqual(START / 1000 + 600);
      previous = event.timestamp;
    }
    service.close();
    const stopped = dataset.eventCount;
    vi.advanceTimersByTime(10 * MINUTE);
    expect(dataset.eventCount).toBe(stopped);
  });

  it('join the head of their contract list and their token list; a walk in progress misses nothing and repeats nothing', async () => {
    const service = liveService();
    const contract = busiest(service)[0]!;
    const expectedAtStart = contractRecordsInOrder(service.dataset, contract.index, 'deployed');
    const first = JSON.parse(
      (await get(service, `${eventsPath(contract.address)}?limit=25`)).text,
    ) as Json;
    const seen = (first.result as Json[]).map(recordKey);

    vi.advanceTimersByTime(15 * MINUTE);
    const added = service.dataset.addedEvents(contract);
    expect(added.length).toBeGreaterThan(0);
    // The walk begun before the arrivals goes on from where it was.
    let cursor = first.cursor as string | undefined;
    while (cursor !== undefined) {
      const page = JSON.parse(
        (await get(service, `${eventsPath(contract.address)}?limit=25&cursor=${cursor}`)).text,
      ) as Json;
      seen.push(...(page.result as Json[]).map(recordKey));
      cursor = page.cursor as string | undefined;
    }
    expect(seen).toEqual(expectedAtStart);

    // A new walk from the head has them first, newest first, each sale with its twin.
    const { items } = await walk(service, eventsPath(contract.address), 40);
    expect(items.map(recordKey)).toEqual(
      contractRecordsInOrder(service.dataset, contract.index, 'deployed'),
    );
    const fresh = items.slice(0, items.length - expectedAtStart.length);
    expect(fresh.length).toBeGreaterThanOrEqual(added.length);
    for (const item of fresh) expect(Number(item.timestamp)).toBeGreaterThanOrEqual(START / 1000);
    const last = service.dataset.event(added.at(-1)!);
    const history = await walk(
      service,
      eventsPath(contract.address, tokenIdToDecimal(last.token.id)),
    );
    expect(history.items.map((item) => item.transaction_hash)).toContain(last.transactionHash);
    service.close();
  });
});
