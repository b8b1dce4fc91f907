import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ZERO_ADDRESS } from '../../../src/lib/address';
import {
  createSampleService,
  generateScaleData,
  PAGE_BYTE_CAP,
  PROFILES,
  type Contract,
  type ScaleData,
  type ScaleOptions,
} from '../../../src/server/sample-service';
import { findGc } from '../../support/gc';
import {
  API_KEY,
  contractRecordsInOrder,
  eventsPath,
  get,
  recordKey,
  tokenRecordsInOrder,
  walk,
  withoutCursor,
  type Json,
} from './helpers';

/** Small enough to walk whole, large enough for every shape: a busiest, a tail, idle ones. */
const SMALL = { seed: 5, contracts: 40, events: 12_000 } satisfies ScaleOptions;
const scales = new Map<string, ScaleData>();
const scale = (options: ScaleOptions): ScaleData => {
  const key = JSON.stringify(options);
  const found = scales.get(key) ?? generateScaleData(options);
  scales.set(key, found);
  return found;
};
const bySize = (data: ScaleData): Contract[] =>
  [...data.contracts].sort((a, b) => b.eventCount - a.eventCount);
const service = (data: ScaleData, profile: (typeof PROFILES)[number] = 'deployed') =>
  createSampleService({ apiKey: API_KEY, profile, dataset: data });

/** Every event of a contract, oldest first, straight from the data. */
const eventsOf = (data: ScaleData, contract: Contract) =>
  Array.from({ length: contract.eventCount }, (_, n) => data.event(contract.firstEvent + n));

/**
 * Plays records forward (oldest first): a mint gives a token that does not exist, a move
 * must come from who holds the token, a burn ends it. Returns the problems found.
 */
function replay(
  records: readonly { token: string; kind: string; from: string; to: string }[],
): string[] {
  const holders = new Map<string, string | null>();
  const problems: string[] = [];
  for (const { token, kind, from, to } of records) {
    const held = holders.get(token);
    if (kind === 'mint') {
      if (held !== undefined) problems.push(`${token} minted twice`);
      if (from !== ZERO_ADDRESS) problems.push(`${token} minted from ${from}`);
    } else if (held === undefined || held === null) {
      problems.push(`${token} moved before its mint or after its burn`);
    } else if (held !== from) {
      problems.push(`${token} moved from ${from}, held by ${held}`);
    }
    if (from === to) problems.push(`${token} moved to its holder`);
    holders.set(token, to === ZERO_ADDRESS ? null : to);
  }
  return problems;
}

describe('the scale data', () => {
  it('is the same for the same seed, page for page, and other data for another seed', async () => {
    const [first, again] = [generateScaleData(SMALL), generateScaleData(SMALL)];
    const other = generateScaleData({ ...SMALL, seed: SMALL.seed + 1 });
    const pages = async (data: ScaleData, path: string) => {
      // Signed cursors are the data's alone: the documented profile's pages are whole texts.
      const walked = await walk(service(data, 'documented'), path, 250);
      return walked.pages.map((page) => JSON.stringify(page.body));
    };
    for (const contract of bySize(first).slice(0, 3)) {
      const path = eventsPath(contract.address);
      expect(await pages(again, path)).toEqual(await pages(first, path));
    }
    expect(await pages(again, '/v1/contracts')).toEqual(await pages(first, '/v1/contracts'));
    const busiest = bySize(first)[0]!;
    const deployed = [service(first), service(again)];
    const [a, b] = await Promise.all(
      deployed.map((one) => get(one, `${eventsPath(busiest.address)}?limit=40`)),
    );
    expect(withoutCursor(b!.text)).toEqual(withoutCursor(a!.text));
    const sample = (data: ScaleData) =>
      Array.from({ length: 50 }, (_, n) => {
        const event = data.event(n * 200);
        return `${event.kind} ${event.token.id} ${event.toAddress} ${event.timestamp}`;
      });
    expect(sample(other)).not.toEqual(sample(first));
  });

  it('has the real service shape: one contract of 30%, a few of 5–10%, most with few events, busy wallets in many contracts', () => {
    const data = scale({ seed: 1, contracts: 1_000, events: 1_000_000 });
    const counts = bySize(data).map((contract) => contract.eventCount);
    expect(counts.reduce((sum, n) => sum + n, 0)).toBe(1_000_000);
    expect(counts[0]! / 1_000_000).toBeGreaterThanOrEqual(0.29);
    expect(counts[0]! / 1_000_000).toBeLessThan(0.32);
    for (const share of counts.slice(1, 5).map((n) => n / 1_000_000)) {
      expect(share).toBeGreaterThanOrEqual(0.049);
      expect(share).toBeLessThanOrEqual(0.1);
    }
    const active = counts.filter((n) => n > 0);
    const median = active[active.length >> 1]!;
    expect(median).toBeGreaterThanOrEqual(5);
    expect(median).toBeLessThanOrEqual(300);
    // The tail's largest is far below the head, its smallest a handful.
    expect(counts[5]!).toBeLessThan(counts[4]! / 2);
    expect(active.at(-1)!).toBeGreaterThanOrEqual(1);
    expect(active.at(-1)!).toBeLessThanOrEqual(30);
    // The two real contracts take the first two places, the idle ones none.
    expect(bySize(data)[0]!.name).toBe('StarkVerse Gallery');
    expect(bySize(data)[1]!.name).toBe('Starknet Quest');
    expect(counts.filter((n) => n === 0)).toHaveLength(2);

    // Wallets recur across contracts: the receivers of the small contracts' events.
    const contractsOf = new Map<string, Set<number>>();
    for (const contract of bySize(data).slice(5)) {
      for (const event of eventsOf(data, contract)) {
        const seen = contractsOf.get(event.toAddress) ?? new Set<number>();
        seen.add(contract.index);
        contractsOf.set(event.toAddress, seen);
      }
    }
    const widest = Math.max(...Array.from(contractsOf.values(), (seen) => seen.size));
    expect(widest).toBeGreaterThanOrEqual(50);
  }, 60_000);

  it('serves every record of a contract once, newest first, in pages under 1 MB, in both profiles', async () => {
    const data = scale(SMALL);
    for (const profile of PROFILES) {
      const one = service(data, profile);
      for (const contract of [...bySize(data).slice(0, 2), bySize(data)[20]!]) {
        const walked = await walk(one, eventsPath(contract.address), 1_000);
        const served = walked.items.map(recordKey);
        expect(served).toEqual(contractRecordsInOrder(data, contract.index, profile));
        expect(new Set(served).size).toBe(served.length);
        for (const page of walked.pages) expect(page.bytes).toBeLessThanOrEqual(PAGE_BYTE_CAP);
      }
    }
    // The byte cap, not the limit, ends a page of the largest: near 1 MB, never over.
    const big = await walk(service(data), eventsPath(bySize(data)[0]!.address), 100_000);
    expect(Math.max(...big.pages.map((page) => page.bytes))).toBeGreaterThan(PAGE_BYTE_CAP * 0.9);
  }, 60_000);

  it("serves a token's records by event id, and finds it by its decimal or hex id", async () => {
    const data = scale(SMALL);
    const one = service(data);
    for (const contract of bySize(data).slice(0, 8)) {
      const { token } = data.event(contract.firstEvent + Math.floor(contract.eventCount / 2));
      const served = await walk(one, eventsPath(contract.address, String(token.id)));
      expect(served.items.map(recordKey)).toEqual(tokenRecordsInOrder(data, token, 'deployed'));
      const hex = await get(one, eventsPath(contract.address, `0x${token.id.toString(16)}`));
      expect((JSON.parse(hex.text) as Json).result).toEqual(served.pages[0]!.body.result);
    }
    // An id the contract never minted is an empty list.
    const busiest = bySize(data)[0]!;
    const unknown = await get(one, eventsPath(busiest.address, '123456789012345678901234567890'));
    expect(JSON.parse(unknown.text)).toEqual({ result: [] });
  });

  it('keeps holders consistent: a token moves from whoever holds it, as served and as generated', async () => {
    const data = scale(SMALL);
    // As served (documented: burns listed, one record a sale), oldest first.
    const one = service(data, 'documented');
    for (const contract of bySize(data).slice(0, 3)) {
      const walked = await walk(one, eventsPath(contract.address), 2_000);
      const records = walked.items.reverse().map((item) => ({
        token: String(item.token_id),
        kind: String(item.event_type),
        from: String(item.from_address),
        to: String(item.to_address),
      }));
      expect(replay(records)).toEqual([]);
      expect(records.some((record) => record.to === ZERO_ADDRESS)).toBe(true);
    }
    // As generated, over seeds and sizes: every contract, every event.
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 1_000 }),
        fc.integer({ min: 1, max: 30 }),
        fc.integer({ min: 0, max: 3_000 }),
        (seed, contracts, events) => {
          const small = generateScaleData({ seed, contracts, events });
          for (const contract of small.contracts) {
            const history = eventsOf(small, contract);
            const problems = replay(
              history.map((event) => ({
                token: String(event.token.id),
                kind: event.kind,
                from: event.fromAddress,
                to: event.toAddress,
              })),
            );
            expect(problems).toEqual([]);
            // Times run with the events' numbers, the order a contract's list needs.
            history.forEach((event, n) => {
              if (n > 0) expect(event.timestamp).toBeGreaterThanOrEqual(history[n - 1]!.timestamp);
            });
            for (const event of history.slice(0, 20)) {
              const seqs = Array.from(small.tokenEvents(event.token));
              expect(seqs).toContain(event.seq);
              expect(small.event(seqs[0]!).kind).toBe('mint');
              expect(small.findToken(contract, event.token.id)?.index).toBe(event.token.index);
            }
          }
        },
      ),
      { numRuns: 25 },
    );
  }, 60_000);

  it('holds no more after walking many pages of its largest contract than after a few', async () => {
    const gc = findGc();
    expect(gc, 'a gc to call before each reading').toBeDefined();
    const data = scale({ seed: 2, contracts: 200, events: 400_000 });
    // Documented cursors are signed, not kept: what stays is the data's own.
    const one = service(data, 'documented');
    const path = eventsPath(bySize(data)[0]!.address);
    let cursor: string | undefined;
    const pages = async (count: number) => {
      for (let n = 0; n < count; n += 1) {
        const { text } = await get(one, `${path}?limit=1000${cursor ? `&cursor=${cursor}` : ''}`);
        cursor = (JSON.parse(text) as Json).cursor as string;
      }
    };
    const heap = () => {
      gc!();
      gc!();
      return process.memoryUsage().heapUsed;
    };
    await pages(5);
    const before = heap();
    // 60 pages of 1,000 records: ~100,000 events, which kept would be tens of megabytes.
    await pages(60);
    const after = heap();
    expect(after - before).toBeLessThan(4 * 2 ** 20);
  }, 60_000);
});
