import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { tokenIdToDecimal } from '../../../src/lib/token-id';
import { PAGE_BYTE_CAP, PROFILES, type Dataset } from '../../../src/server/sample-service';
import {
  contractEventsInOrder,
  dataset,
  eventKey,
  eventsPath,
  expectedEventKey,
  services,
  SMALL,
  tokenEventsInOrder,
  walk,
} from './helpers';

const data = dataset(SMALL);
const byProfile = services(data);

const profile = fc.constantFrom(...PROFILES);
/** Mostly small limits, so walks take many pages; sometimes larger than any list here. */
const limit = fc.oneof(fc.integer({ min: 1, max: 12 }), fc.integer({ min: 1, max: 2_000 }));

/** A token of a contract with a long history, or any token. */
const tokenIndex = (of: Dataset): fc.Arbitrary<number> =>
  fc.integer({ min: 0, max: of.tokenCount - 1 });

describe('walking every page of a list', () => {
  it('returns every contract exactly once, oldest-indexed first', async () => {
    await fc.assert(
      fc.asyncProperty(profile, limit, async (name, pageLimit) => {
        const { items } = await walk(byProfile[name], '/v1/contracts', pageLimit);
        expect(items.map((item) => item.contract_address)).toEqual(
          data.contracts.map((contract) => contract.address),
        );
      }),
      { numRuns: 40 },
    );
  });

  it('returns every event of a contract exactly once, newest first', async () => {
    await fc.assert(
      fc.asyncProperty(
        profile,
        limit,
        fc.integer({ min: 0, max: data.contracts.length - 1 }),
        async (name, pageLimit, contract) => {
          const address = data.contracts[contract]?.address ?? '';
          const { items } = await walk(byProfile[name], eventsPath(address), pageLimit);
          const expected = contractEventsInOrder(data, contract);
          expect(items.map(eventKey)).toEqual(expected.map(expectedEventKey));
          const times = items.map((item) => Number(item.timestamp));
          times.slice(1).forEach((time, n) => expect(time).toBeLessThanOrEqual(times[n] ?? 0));
        },
      ),
      { numRuns: 30 },
    );
  });

  it('returns every event of a token exactly once, in event id order', async () => {
    await fc.assert(
      fc.asyncProperty(
        profile,
        fc.integer({ min: 1, max: 5 }),
        tokenIndex(data),
        async (name, pageLimit, index) => {
          const token = data.token(index);
          const path = eventsPath(token.contract.address, tokenIdToDecimal(token.id));
          const { items } = await walk(byProfile[name], path, pageLimit);
          expect(items.map(eventKey)).toEqual(
            tokenEventsInOrder(data, token).map(expectedEventKey),
          );
        },
      ),
      { numRuns: 60 },
    );
  });

  it('gives the same items whatever the limit', async () => {
    const address = data.contracts.find((contract) => contract.eventCount > 300)?.address ?? '';
    for (const name of PROFILES) {
      const reference = (await walk(byProfile[name], eventsPath(address), 1_000)).items;
      await fc.assert(
        fc.asyncProperty(limit, async (pageLimit) => {
          expect((await walk(byProfile[name], eventsPath(address), pageLimit)).items).toEqual(
            reference,
          );
        }),
        { numRuns: 15 },
      );
    }
  });
});

describe('the 1 MB page cap', () => {
  const moderate = dataset({ seed: 4, contracts: 8, events: 20_000 });
  const moderateServices = services(moderate);
  const busiest = [...moderate.contracts].sort((a, b) => b.eventCount - a.eventCount)[0];

  it('cuts pages to at most 1,048,576 bytes and still yields every event', async () => {
    const address = busiest?.address ?? '';
    const expected = contractEventsInOrder(moderate, busiest?.index ?? 0).map(expectedEventKey);
    await fc.assert(
      fc.asyncProperty(
        profile,
        fc.integer({ min: 3_000, max: 1_000_000 }),
        async (name, pageLimit) => {
          const { items, pages } = await walk(
            moderateServices[name],
            eventsPath(address),
            pageLimit,
          );
          expect(items.map(eventKey)).toEqual(expected);
          // Full pages were cut by the cap: no room was left for one more record (< 1 KB).
          const full = pages.filter((page) => page.hasCursor && page.count > 0);
          expect(full.length).toBeGreaterThan(0);
          for (const page of full) {
            expect(page.count).toBeLessThan(pageLimit);
            expect(page.bytes).toBeGreaterThan(PAGE_BYTE_CAP - 1_024);
          }
        },
      ),
      { numRuns: 4 },
    );
  });
});
