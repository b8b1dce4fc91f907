import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ZERO_ADDRESS } from '../../../src/lib/address';
import { tokenIdToDecimal } from '../../../src/lib/token-id';
import {
  createSampleService,
  PAGE_BYTE_CAP,
  PROFILES,
  type Dataset,
  type SampleService,
} from '../../../src/server/sample-service';
import {
  API_KEY,
  contractRecordsInOrder,
  contractRowsInOrder,
  dataset,
  eventKey,
  eventsPath,
  get,
  recordKey,
  services,
  SMALL,
  tokenRecordsInOrder,
  walk,
  withoutCursor,
  type Json,
} from './helpers';

const data = dataset(SMALL);
const byProfile = services(data);

const profile = fc.constantFrom(...PROFILES);
/** Mostly small limits, so walks take many pages; sometimes larger than any list here. */
const limit = fc.oneof(fc.integer({ min: 1, max: 12 }), fc.integer({ min: 1, max: 2_000 }));
const contractIndex = fc.integer({ min: 0, max: data.contracts.length - 1 });

/** A page of a contract's events at a limit, after a cursor or at the head. */
const pagePath =
  (contract: number, pageLimit: number) =>
  (cursor?: string): string =>
    `${eventsPath(data.contracts[contract]?.address ?? '')}?limit=${pageLimit}` +
    (cursor ? `&cursor=${cursor}` : '');

/** The cursor `pages` pages down a list (undefined at the head, or where the list ends). */
async function cursorAfter(
  service: SampleService,
  path: (cursor?: string) => string,
  pages: number,
): Promise<string | undefined> {
  let cursor: string | undefined;
  for (let n = 0; n < pages; n += 1) {
    const body = JSON.parse((await get(service, path(cursor))).text) as Json;
    if (typeof body.cursor !== 'string') return n === 0 ? undefined : cursor;
    cursor = body.cursor;
  }
  return cursor;
}

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

  it('returns every record of a contract exactly once, newest first', async () => {
    await fc.assert(
      fc.asyncProperty(profile, limit, contractIndex, async (name, pageLimit, contract) => {
        const address = data.contracts[contract]?.address ?? '';
        const { items } = await walk(byProfile[name], eventsPath(address), pageLimit);
        expect(items.map(recordKey)).toEqual(contractRecordsInOrder(data, contract, name));
        const times = items.map((item) => Number(item.timestamp));
        times.slice(1).forEach((time, n) => expect(time).toBeLessThanOrEqual(times[n] ?? 0));
      }),
      { numRuns: 30 },
    );
  });

  it('deployed: the limit counts the rows read, burns included, though burns are left out', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 2, max: 12 }),
        contractIndex,
        async (pageLimit, contract) => {
          const address = data.contracts[contract]?.address ?? '';
          const rows = contractRowsInOrder(data, contract, 'deployed');
          const place = new Map(rows.map((row, index) => [row.key, index]));
          const { pages } = await walk(byProfile.deployed, eventsPath(address), pageLimit);
          for (const page of pages) {
            const at = (page.body.result as Json[]).map(
              (item) => place.get(recordKey(item)) ?? NaN,
            );
            if (at.length === 0) continue;
            // Every row from the page's first record to its last was read for it, burns too.
            expect(Math.max(...at) - Math.min(...at) + 1).toBeLessThanOrEqual(pageLimit);
          }
        },
      ),
      { numRuns: 30 },
    );
  });

  it('returns every record of a token exactly once, in event id order', async () => {
    await fc.assert(
      fc.asyncProperty(
        profile,
        fc.integer({ min: 1, max: 5 }),
        tokenIndex(data),
        async (name, pageLimit, index) => {
          const token = data.token(index);
          const path = eventsPath(token.contract.address, tokenIdToDecimal(token.id));
          const { items } = await walk(byProfile[name], path, pageLimit);
          expect(items.map(recordKey)).toEqual(tokenRecordsInOrder(data, token, name));
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

describe('deployed: sales, burns and lists', () => {
  const busiest = [...data.contracts].sort((a, b) => b.eventCount - a.eventCount)[0]!;

  it('lists no burn by contract, and every burn by token', async () => {
    const { items } = await walk(byProfile.deployed, eventsPath(busiest.address), 500);
    expect(items.filter((item) => item.to_address === ZERO_ADDRESS)).toEqual([]);
    const burned = Array.from({ length: data.tokenCount }, (_, index) => data.token(index)).find(
      (token) => data.holder(token) === -1,
    )!;
    const history = await walk(
      byProfile.deployed,
      eventsPath(burned.contract.address, tokenIdToDecimal(burned.id)),
    );
    expect(history.items.filter((item) => item.to_address === ZERO_ADDRESS)).toHaveLength(1);
  });

  it('serves every sale as its transfer and the marketplace record, side by side', async () => {
    const { items, pages } = await walk(byProfile.deployed, eventsPath(busiest.address), 97);
    const sales = items.flatMap((item, index) => (item.event_type === 'sale' ? [index] : []));
    expect(sales.length).toBeGreaterThan(0);
    let reversed = 0;
    for (const index of sales) {
      const sale = items[index]!;
      const twin = [items[index - 1], items[index + 1]].find(
        (item) =>
          item?.event_type === 'transfer' &&
          item.transaction_hash === sale.transaction_hash &&
          item.token_id === sale.token_id,
      );
      expect(twin, `the transfer of sale ${String(sale.transaction_hash)}`).toBeDefined();
      expect(twin).toMatchObject({
        contract_address: busiest.address,
        contract_type: busiest.type,
        timestamp: sale.timestamp,
        block_number: sale.block_number,
      });
      expect(twin!.event_id).not.toBe(sale.event_id);
      expect(sale.event_id).toBe(sale.token_id_hex);
      expect(sale.nft_contract_address).toBe(busiest.address);
      expect(sale).not.toHaveProperty('contract_address');
      expect(sale).not.toHaveProperty('contract_type');
      const same = sale.from_address === twin!.from_address && sale.to_address === twin!.to_address;
      const swapped =
        sale.from_address === twin!.to_address && sale.to_address === twin!.from_address;
      expect(same || swapped).toBe(true);
      if (swapped) reversed += 1;
    }
    // Accepted offers: the marketplace names the parties the other way round.
    expect(reversed).toBeGreaterThan(0);
    expect(reversed).toBeLessThan(sales.length);
    // Either may come first, and a page may end between them.
    const twinFirst = sales.map(
      (index) => eventKey(items[index - 1] ?? {}) === eventKey(items[index]!),
    );
    expect(new Set(twinFirst)).toEqual(new Set([true, false]));
    let end = 0;
    const split = pages.some((page) => {
      end += page.count;
      const [last, next] = [items[end - 1], items[end]];
      return last && next && page.hasCursor && eventKey(last) === eventKey(next);
    });
    expect(split).toBe(true);
  });

  it('makes every page a new cursor, even for the same position, and both lead on alike', async () => {
    await fc.assert(
      fc.asyncProperty(
        contractIndex,
        fc.integer({ min: 1, max: 40 }),
        fc.nat(6),
        async (contract, pageLimit, depth) => {
          const path = pagePath(contract, pageLimit);
          const cursor = await cursorAfter(byProfile.deployed, path, depth);
          const [first, second] = [
            await get(byProfile.deployed, path(cursor)),
            await get(byProfile.deployed, path(cursor)),
          ];
          expect(withoutCursor(first.text)).toEqual(withoutCursor(second.text));
          const cursors = [first, second].map((answer) => (JSON.parse(answer.text) as Json).cursor);
          if (cursors[0] === undefined) {
            expect(cursors[1]).toBeUndefined();
            return;
          }
          expect(cursors[0]).not.toBe(cursors[1]);
          const next = await Promise.all(
            cursors.map(async (each) =>
              withoutCursor((await get(byProfile.deployed, path(String(each)))).text),
            ),
          );
          expect(next[0]).toEqual(next[1]);
        },
      ),
      { numRuns: 30 },
    );
  });
});

describe('deployed: forgotten cursors', () => {
  /** A service of its own: forgetting its cursors must not disturb the other tests. */
  const forgetful = (): SampleService =>
    createSampleService({ apiKey: API_KEY, dataset: data, profile: 'deployed' });
  const deadAnswer = { status: 502, body: { message: 'Internal server error' } };

  it('answer 502 for ever; a new walk from the head still returns every record', async () => {
    await fc.assert(
      fc.asyncProperty(
        contractIndex,
        fc.integer({ min: 1, max: 30 }),
        fc.nat(20),
        fc.integer({ min: 1, max: 4 }),
        async (contract, pageLimit, stopAfter, retries) => {
          const service = forgetful();
          const address = data.contracts[contract]?.address ?? '';
          const path = pagePath(contract, pageLimit);
          const cursor = await cursorAfter(service, path, stopAfter + 1);
          fc.pre(cursor !== undefined);
          service.forgetCursors();
          const dead = async () => {
            const { status, text } = await get(service, path(cursor));
            return { status, body: JSON.parse(text) as unknown };
          };
          for (let n = 0; n < retries; n += 1) expect(await dead()).toEqual(deadAnswer);
          const { items } = await walk(service, eventsPath(address), pageLimit);
          expect(items.map(recordKey)).toEqual(contractRecordsInOrder(data, contract, 'deployed'));
          expect(await dead()).toEqual(deadAnswer);
        },
      ),
      { numRuns: 25 },
    );
  });

  it('are forgotten over HTTP too, with the key, when the control routes are on', async () => {
    const service = createSampleService({
      apiKey: API_KEY,
      dataset: data,
      profile: 'deployed',
      control: true,
    });
    const forget = (key = API_KEY) =>
      service.fetch('/_control/cursors/forget', { method: 'POST', headers: { 'x-api-key': key } });
    const first = JSON.parse((await get(service, '/v1/contracts?limit=2')).text) as Json;
    const next = `/v1/contracts?limit=2&cursor=${String(first.cursor)}`;
    expect((await get(service, next)).status).toBe(200);
    expect((await forget('wrong')).status).toBe(403);
    expect((await get(service, next)).status).toBe(200);
    const answer = await forget();
    expect(answer.status).toBe(200);
    // The first page's cursor, and the one each of the two requests of the second page issued.
    expect(await answer.json()).toEqual({ forgotten: 3 });
    expect((await get(service, next)).status).toBe(502);

    const documented = createSampleService({
      apiKey: API_KEY,
      dataset: data,
      profile: 'documented',
      control: true,
    });
    const refused = await documented.fetch('/_control/cursors/forget', {
      method: 'POST',
      headers: { 'x-api-key': API_KEY },
    });
    expect(refused.status).toBe(409);
    expect(documented.forgetCursors()).toBe(0);
    const plain = createSampleService({ apiKey: API_KEY, dataset: data, profile: 'deployed' });
    expect(
      (
        await plain.fetch('/_control/cursors/forget', {
          method: 'POST',
          headers: { 'x-api-key': API_KEY },
        })
      ).status,
    ).toBe(403);
  });

  it('are evicted least recently issued first past the cache size', async () => {
    const service = createSampleService({
      apiKey: API_KEY,
      dataset: data,
      profile: 'deployed',
      cursorCacheSize: 3,
    });
    const cursorOf = async (path: string) =>
      String((JSON.parse((await get(service, path)).text) as Json).cursor);
    const oldest = await cursorOf('/v1/contracts?limit=1');
    for (let n = 0; n < 2; n += 1) await cursorOf('/v1/contracts?limit=1');
    expect((await get(service, `/v1/contracts?limit=1&cursor=${oldest}`)).status).toBe(200);
    // That request issued a fourth cursor: the oldest is gone.
    expect((await get(service, `/v1/contracts?limit=1&cursor=${oldest}`)).status).toBe(502);
  });
});

describe('the 1 MB page cap', () => {
  const moderate = dataset({ seed: 4, contracts: 8, events: 20_000 });
  const moderateServices = services(moderate);
  const busiest = [...moderate.contracts].sort((a, b) => b.eventCount - a.eventCount)[0];

  it('cuts pages to at most 1,048,576 bytes and still yields every record', async () => {
    const address = busiest?.address ?? '';
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
          expect(items.map(recordKey)).toEqual(
            contractRecordsInOrder(moderate, busiest?.index ?? 0, name),
          );
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
