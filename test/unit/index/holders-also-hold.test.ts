import { describe, expect, it } from 'vitest';
import { generateDataset } from '../../../src/server/sample-service';
import { useIndexedSample, type Json } from '../../support/indexed-sample';
import { holdersFrom, rawRecords, type ExpectedHolder } from '../../support/raw-records';

/**
 * What a collection's holders also hold (`GET …/holders/also-hold`) and who holds two
 * collections (`GET …/holders/overlap/:other`), with their files: every figure and row
 * equal to the holders worked out here from each collection's own records.
 */
const dataset = generateDataset({ seed: 11, contracts: 4, events: 6_000 });
const [busiest, second] = [...dataset.contracts].sort((a, b) => b.eventCount - a.eventCount);
const base = `/api/collections/${busiest!.address}`;

const setUp = useIndexedSample(dataset);

/** Every collection's holders now, from its raw records. */
async function holdersOfEach(service: Parameters<typeof rawRecords>[0]) {
  const each = new Map<string, Map<string, ExpectedHolder>>();
  for (const contract of dataset.contracts) {
    const holders = holdersFrom(await rawRecords(service, contract.address), Infinity);
    each.set(contract.address, new Map(holders.map((h) => [h.owner, h])));
  }
  return each;
}

describe('what the holders also hold', () => {
  it('names the other collections by holders in common, and who holds both, as the raw records say', async () => {
    const { proxy, service, get } = await setUp();
    for (const contract of dataset.contracts) await proxy.indexer!.whole(contract.address).done;
    const each = await holdersOfEach(service);
    const mine = each.get(busiest!.address)!;

    // Also hold: every other collection, most holders in common first.
    const want = [...each]
      .filter(([address]) => address !== busiest!.address)
      .map(([address, theirs]) => {
        const common = [...mine.keys()].filter((owner) => theirs.has(owner));
        return {
          address,
          inCommon: common.length,
          share: common.length / mine.size,
          holders: theirs.size,
          theirShare: common.length / theirs.size,
          tokens: common.reduce((sum, owner) => sum + theirs.get(owner)!.tokens, 0),
        };
      })
      .filter((row) => row.inCommon > 0)
      .sort((a, b) => b.inCommon - a.inCommon || (a.address < b.address ? -1 : 1));
    expect(want.length).toBeGreaterThan(1);
    const also = await get(`${base}/holders/also-hold`);
    expect(also.status).toBe(200);
    expect(also.body.holders).toBe(mine.size);
    expect(
      also.body.collections.map((c: Json) => ({
        address: c.address,
        inCommon: c.inCommon,
        share: c.share,
        holders: c.holders,
        theirShare: c.theirShare,
        tokens: c.tokens,
      })),
    ).toEqual(want);
    expect(also.body.collections[0].name).toBe(
      dataset.contracts.find((c) => c.address === want[0]!.address)!.name,
    );
    const one = await get(`${base}/holders/also-hold?limit=1`);
    expect(one.body.collections).toHaveLength(1);

    // Its file: the same rows.
    const file = await proxy.app.request(`${base}/holders/also-hold/export`);
    expect(file.headers.get('content-disposition')).toBe(
      `attachment; filename="holders-${busiest!.address.slice(0, 10)}_also-hold.csv"`,
    );
    const [header, ...lines] = (await file.text()).trimEnd().split('\r\n');
    expect(header).toBe(
      'address,name,symbol,holders_in_common,share,their_holders,their_share,tokens,as_of_utc',
    );
    expect(lines.map((line) => [line.split(',')[0], Number(line.split(',')[3])])).toEqual(
      want.map((row) => [row.address, row.inCommon]),
    );

    // Overlap with the second busiest: every wallet holding both, page by page.
    const theirs = each.get(second!.address)!;
    const both = [...mine.values()]
      .filter((h) => theirs.has(h.owner))
      .map((h) => ({ owner: h.owner, tokens: h.tokens, otherTokens: theirs.get(h.owner)!.tokens }))
      .sort(
        (a, b) =>
          b.tokens - a.tokens ||
          b.otherTokens - a.otherTokens ||
          (a.owner > b.owner ? -1 : a.owner < b.owner ? 1 : 0),
      );
    expect(both.length).toBeGreaterThan(5);
    const rows: Json[] = [];
    let cursor: string | null = null;
    let first: Json | undefined;
    do {
      const page: { status: number; body: Json } = await get(
        `${base}/holders/overlap/${second!.address}?limit=4${cursor ? `&cursor=${cursor}` : ''}`,
      );
      expect(page.status).toBe(200);
      first ??= page.body;
      rows.push(...page.body.rows);
      cursor = page.body.next;
    } while (cursor);
    expect(rows).toEqual(both);
    expect(first!.other).toEqual({
      address: second!.address,
      name: second!.name,
      symbol: second!.symbol,
    });
    expect([first!.holders, first!.otherHolders, first!.inCommon]).toEqual([
      mine.size,
      theirs.size,
      both.length,
    ]);
    expect(first!.share).toBe(both.length / mine.size);
    expect(first!.otherShare).toBe(both.length / theirs.size);

    const overlapFile = await proxy.app.request(
      `${base}/holders/overlap/${second!.address}/export`,
    );
    const [overlapHeader, ...overlapLines] = (await overlapFile.text()).trimEnd().split('\r\n');
    expect(overlapHeader).toBe('owner,tokens,other_tokens,as_of_utc');
    expect(overlapLines.map((line) => line.split(',').slice(0, 3).join(','))).toEqual(
      both.map((h) => `${h.owner},${h.tokens},${h.otherTokens}`),
    );
  }, 180_000);

  it('says what it cannot read: a bad address, an address that is no collection, a cursor of another pair', async () => {
    const { proxy, get } = await setUp();
    for (const contract of [busiest!, second!]) await proxy.indexer!.whole(contract.address).done;
    const nowhere = `0x${'7'.repeat(64)}`;
    const notListed = await get(`${base}/holders/overlap/${nowhere}`);
    expect(notListed.status).toBe(404);
    expect(notListed.body.error.message).toBe(
      `${nowhere} is not a collection the Token Events Service lists.`,
    );
    const bad = await get(`${base}/holders/overlap/0xnothex`);
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toMatch(/Starknet address/);
    const [third] = dataset.contracts.filter((c) => c !== busiest && c !== second);
    const page = await get(`${base}/holders/overlap/${second!.address}?limit=1`);
    expect(typeof page.body.next).toBe('string');
    const moved = await get(
      `${base}/holders/overlap/${third!.address}?limit=1&cursor=${page.body.next}`,
    );
    expect(moved.status).toBe(400);
    expect(moved.body.error.message).toMatch(/cursor is not one this server gave/);
    const limit = await get(`${base}/holders/also-hold?limit=500`);
    expect(limit.status).toBe(400);
    expect(limit.body.error.message).toMatch(/1 to 100/);
  }, 60_000);
});
