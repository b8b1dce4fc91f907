import { describe, expect, it } from 'vitest';
import { generateDataset } from '../../../src/server/sample-service';
import { useIndexedSample } from '../../support/indexed-sample';

/**
 * The ranking's search (`GET /api/collections?q=…`) over the query API on a test database:
 * it filters the whole ranking on the server, page after page, and a new server ranks the
 * service's contracts without anyone having opened one.
 */
const dataset = generateDataset({ seed: 11, contracts: 12, events: 3_000 });

const indexedSample = useIndexedSample(dataset);

interface Ranked {
  address: string;
  name: string | null;
  symbol: string | null;
  events: number;
}

/** A ranking's page, or our error body. */
interface Answer {
  collections: Ranked[];
  next: string | null;
  error?: { message: string };
}

async function setUp() {
  const { proxy } = await indexedSample();
  const get = async (path: string) => {
    const response = await proxy.app.request(path);
    return { status: response.status, body: (await response.json()) as Answer };
  };
  /** Every row of a ranking, walked page by page on the server's cursor. */
  const walk = async (query: string) => {
    const rows: Ranked[] = [];
    let cursor: string | null = null;
    do {
      const page = await get(
        `/api/collections?window=all&limit=2&${query}${cursor ? `&cursor=${cursor}` : ''}`,
      );
      expect(page.status, JSON.stringify(page.body)).toBe(200);
      rows.push(...page.body.collections);
      cursor = page.body.next;
    } while (cursor);
    return rows;
  };
  return { proxy, get, walk };
}

describe('collections found by text on the server', () => {
  it('ranks every listed contract on a new database, not only the one opened first', async () => {
    const { get, walk } = await setUp();
    const opened = dataset.contracts[4]!.address;
    expect((await get(`/api/collections/${opened}/events?limit=1`)).status).toBe(200);
    const rows = await walk('sort=name');
    expect(rows.map((row) => row.address).sort()).toEqual(
      dataset.contracts.map((contract) => contract.address).sort(),
    );
    // Nothing indexed but the head of the one opened.
    expect(rows.filter((row) => row.events > 0).map((row) => row.address)).toEqual(
      dataset.contracts[4]!.eventCount > 0 ? [opened] : [],
    );
  }, 60_000);

  it('filters the whole ranking, across pages, by name, symbol or address', async () => {
    const { proxy, walk } = await setUp();
    for (const { address } of await proxy.indexer!.listed())
      await proxy.indexer!.whole(address).done;
    const all = await walk('sort=-events');
    expect(all).toHaveLength(dataset.contracts.length);

    // A letter of several names (no hex digit, so in no address): every collection that has
    // it, in the ranking's order, and no other.
    const word = 'r';
    const expected = all
      .filter((row) =>
        [row.name, row.symbol, row.address].some((field) => field?.toLowerCase().includes(word)),
      )
      .map((row) => row.address);
    expect(expected.length).toBeGreaterThan(2);
    expect(expected.length).toBeLessThan(all.length);
    expect((await walk(`sort=-events&q=${word.toUpperCase()}`)).map((r) => r.address)).toEqual(
      expected,
    );

    // One collection by its symbol, part of its name and its address's first digits.
    const last = all.find((row) => row.symbol && row.name === 'StarkVerse Gallery')!;
    const digits = last.address.slice(2).replace(/^0+/, '').slice(0, 6);
    for (const q of [last.symbol!.toLowerCase(), 'starkverse gal', `0x${digits}`, `0x0${digits}`])
      expect(
        (await walk(`q=${encodeURIComponent(q)}`)).map((r) => r.address),
        q,
      ).toEqual([last.address]);
    expect(await walk('q=no-such-collection')).toEqual([]);
  }, 120_000);

  it('binds its cursors to the text, and refuses a text too long', async () => {
    const { get } = await setUp();
    const first = await get('/api/collections?window=all&limit=1&q=a');
    expect(first.status).toBe(200);
    expect(first.body.next).toEqual(expect.any(String));
    const other = await get(`/api/collections?window=all&limit=1&q=e&cursor=${first.body.next}`);
    expect(other.status).toBe(400);
    const long = await get(`/api/collections?q=${'x'.repeat(201)}`);
    expect(long.status).toBe(400);
    expect(long.body.error?.message).toMatch(/q must be at most 200 characters/);
  }, 60_000);
});
