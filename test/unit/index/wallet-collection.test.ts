import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { HELD_INTERVALS, type HeldInterval } from '../../../src/lib/answers';
import { generateDataset } from '../../../src/server/sample-service';
import { walletInCollection } from '../../../src/server/index/wallet-collection';
import { useIndexedSample } from '../../support/indexed-sample';
import { countedCurrency } from '../../support/raw-records';
import { resultsByCurrency } from '../../support/realised-results';
import { CONTRACT, history, ingestPages, recordsOf, WALLETS, ZERO, type Change } from './history';

/**
 * One wallet inside one collection: every figure equals the same figure worked out here
 * from the history itself (tokens held at each bucket's end by replaying every change of
 * the collection up to it; results from each token's changes in turn), whatever the
 * history; and the route answers it with the collection's coverage, or a clear 400.
 */
const DAY = 86_400;

const dataset = generateDataset({ seed: 7, contracts: 3, events: 4_000 });
const busiest = [...dataset.contracts].sort((a, b) => b.eventCount - a.eventCount)[0]!;
const setUp = useIndexedSample(dataset);

/** A sale naming no currency counts as ETH. */
const keyOf = (change: Change) => countedCurrency(change.currency);
const add = <T>(map: Map<string, T>, key: string, empty: () => T, change: (entry: T) => void) => {
  const entry = map.get(key) ?? empty();
  change(entry);
  map.set(key, entry);
};
/** A sale's price added to its currency's count and sum. */
const addSale = (map: Map<string, { sales: number; amount: bigint }>, sale: Change) =>
  add(
    map,
    keyOf(sale),
    () => ({ sales: 0, amount: 0n }),
    (e) => {
      e.sales += 1;
      e.amount += sale.price!;
    },
  );

/** The wallet's figures from the history alone. */
function expected(changes: Change[], wallet: string) {
  const mine = changes.filter((c) => c.from === wallet || c.to === wallet);
  // A sale to oneself (a wash trade) moves nothing: neither bought, sold nor a counterparty.
  const moved = mine.filter((c) => c.from !== c.to);
  const count = (test: (c: Change) => boolean) => moved.filter(test).length;
  const trades = (side: 'from' | 'to') => {
    const sums = new Map<string, { sales: number; amount: bigint }>();
    for (const c of moved.filter((c) => c.kind === 'sale' && c[side] === wallet)) {
      addSale(sums, c);
    }
    return sums;
  };
  // Each token's changes in time order (the history's times rise per token): a change to
  // the wallet and the token's next one are a turn.
  const results = new Map<
    string,
    { tokens: number; cost: bigint; proceeds: bigint; flips: number; assumed: number }
  >();
  const unknownCost = new Map<string, { sales: number; amount: bigint }>();
  let crossCurrency = 0;
  const byToken = new Map<number, Change[]>();
  for (const c of changes) byToken.set(c.token, [...(byToken.get(c.token) ?? []), c]);
  for (const list of byToken.values()) {
    list.sort((a, b) => a.ts - b.ts);
    list.forEach((c, index) => {
      const next = list[index + 1];
      if (c.to !== wallet || next?.kind !== 'sale') return;
      if (c.kind !== 'sale') {
        addSale(unknownCost, next);
      } else if (keyOf(c) !== keyOf(next)) crossCurrency += 1;
      else {
        add(
          results,
          keyOf(c),
          () => ({ tokens: 0, cost: 0n, proceeds: 0n, flips: 0, assumed: 0 }),
          (e) => {
            e.tokens += 1;
            e.cost += c.price!;
            e.proceeds += next.price!;
            if (next.ts - c.ts < DAY) e.flips += 1;
            // Either sale naming no currency: ETH assumed.
            if (c.currency === undefined || next.currency === undefined) e.assumed += 1;
          },
        );
      }
    });
  }
  const parties = new Map<string, number[]>();
  for (const c of moved) {
    const other = c.to === wallet ? c.from : c.to;
    if (other === ZERO) continue;
    const sale = c.kind === 'sale';
    const incoming = c.to === wallet;
    add(
      parties,
      other,
      () => [0, 0, 0, 0, 0],
      (e) => {
        e[0]! += 1;
        e[sale ? (incoming ? 1 : 2) : incoming ? 3 : 4]! += 1;
      },
    );
  }
  return {
    changes: mine.length,
    counts: {
      mintsReceived: count((c) => c.kind === 'mint' && c.to === wallet),
      bought: count((c) => c.kind === 'sale' && c.to === wallet),
      sold: count((c) => c.kind === 'sale' && c.from === wallet),
      transfersIn: count((c) => c.kind === 'transfer' && c.to === wallet),
      transfersOut: count((c) => c.kind === 'transfer' && c.from === wallet),
      burned: count((c) => c.kind === 'burn' && c.from === wallet),
    },
    bought: trades('to'),
    sold: trades('from'),
    results,
    unknownCost,
    crossCurrency,
    parties,
    first: Math.min(...mine.map((c) => c.ts)),
    last: Math.max(...mine.map((c) => c.ts)),
  };
}

/** The tokens the wallet held once every change before `end` is replayed, and since when. */
function heldBefore(changes: Change[], wallet: string, end: number) {
  const holder = new Map<number, Change>();
  for (const c of [...changes].sort((a, b) => a.ts - b.ts)) if (c.ts < end) holder.set(c.token, c);
  return [...holder.entries()].filter(([, c]) => c.to === wallet);
}

/** The bucket after the one starting at `start`, checking that `start` is one. */
function bucketEnd(start: number, interval: HeldInterval): number {
  const date = new Date(start * 1000);
  expect(start % DAY).toBe(0);
  if (interval === 'day') return start + DAY;
  if (interval === 'week') {
    expect(date.getUTCDay()).toBe(1);
    return start + 7 * DAY;
  }
  expect(date.getUTCDate()).toBe(1);
  return Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 1) / 1000;
}

const sums = (list: { currency: { address: string | null }; sales: number; amount: string }[]) =>
  new Map(list.map((e) => [e.currency.address, { sales: e.sales, amount: BigInt(e.amount) }]));

describe('a wallet inside a collection', () => {
  it('has every figure equal to the history’s, held at each bucket’s end by replaying every change', async () => {
    const { pool } = await setUp();
    await fc.assert(
      fc.asyncProperty(
        history,
        fc.integer({ min: 0, max: WALLETS.length - 1 }),
        fc.constantFrom(...HELD_INTERVALS),
        fc.integer({ min: 0, max: 90 * DAY }),
        async (changes, pick, interval, later) => {
          await pool.query(
            `TRUNCATE idx_changes, idx_tokens, idx_owners, idx_hourly, idx_contracts, log_lists,
               log_records RESTART IDENTITY`,
          );
          await ingestPages(pool, [recordsOf(changes)]);
          const wallet = WALLETS[pick]!;
          const want = expected(changes, wallet);
          const id = (
            await pool.query<{ id: number }>('SELECT id FROM idx_contracts WHERE address = $1', [
              CONTRACT,
            ])
          ).rows[0]?.id;
          if (id === undefined) return;
          const now = Math.max(0, ...changes.map((c) => c.ts)) + later;
          const got = await walletInCollection(pool, wallet, id, { interval, now });

          expect(got.changes).toBe(want.changes);
          expect(got.counts).toEqual(want.counts);
          expect(sums(got.bought)).toEqual(want.bought);
          expect(sums(got.sold)).toEqual(want.sold);
          expect(sums(got.unknownCost)).toEqual(want.unknownCost);
          expect(got.crossCurrency).toBe(want.crossCurrency);
          expect(resultsByCurrency(got.results)).toEqual(want.results);
          expect(got.flips).toBe([...want.results.values()].reduce((n, e) => n + e.flips, 0));
          const parties = [...want.parties].sort(
            ([a, x], [b, y]) => y[0]! - x[0]! || (a < b ? -1 : 1),
          );
          expect(got.counterpartyCount).toBe(parties.length);
          expect(
            got.counterparties.map((p) => [
              p.address,
              [p.changes, p.boughtFrom, p.soldTo, p.receivedFrom, p.sentTo],
            ]),
          ).toEqual(parties.slice(0, 10));

          if (want.changes === 0) {
            expect(got.held).toEqual([]);
            expect(got.holdsNow).toBe(0);
            return;
          }
          expect([got.firstActivity, got.lastActivity]).toEqual([want.first, want.last]);
          // Buckets one after another, from the first change's to now's.
          expect(got.interval).toBe(interval);
          expect(got.held[0]!.start).toBeLessThanOrEqual(want.first);
          expect(bucketEnd(got.held[0]!.start, interval)).toBeGreaterThan(want.first);
          got.held.forEach((bucket, index) => {
            const end = bucketEnd(bucket.start, interval);
            const next = got.held[index + 1];
            if (next) expect(next.start).toBe(end);
            else expect(end).toBeGreaterThan(now);
            expect(bucket.tokens).toBe(heldBefore(changes, wallet, end).length);
          });
          const heldNow = heldBefore(changes, wallet, Infinity);
          expect(got.holdsNow).toBe(heldNow.length);
          expect(got.held.at(-1)!.tokens).toBe(heldNow.length);
          expect(new Map(got.heldTokens.map((t) => [Number(t.tokenId), t.since]))).toEqual(
            new Map(heldNow.map(([token, c]) => [token, c.ts])),
          );
        },
      ),
      { numRuns: 60 },
    );
  }, 120_000);
});

describe('GET /api/wallets/:address/collections/:contract', () => {
  it('answers with the collection’s coverage, agrees with the wallet’s collections, and refuses bad input', async () => {
    const { proxy, pool, get } = await setUp();
    await proxy.indexer!.whole(busiest.address).done;
    const busy = (
      await pool.query<{ wallet: string }>(
        `SELECT '0x' || encode(to_addr, 'hex') AS wallet FROM idx_changes c
         JOIN idx_contracts ic ON ic.id = c.contract_id WHERE ic.address = $1
         GROUP BY to_addr ORDER BY count(*) DESC, to_addr LIMIT 1`,
        [busiest.address],
      )
    ).rows[0]!.wallet;

    const path = `/api/wallets/${busy}/collections/${busiest.address}`;
    const answer = await get(path);
    expect(answer.status).toBe(200);
    expect(answer.body.coverage.complete).toBe(true);
    expect(answer.body.collection.address).toBe(busiest.address);
    expect(answer.body.held.length).toBeGreaterThan(0);
    expect(answer.body.counted).toMatch(/no known cost/);
    // The wallet's card for the collection says the same of it.
    const card = (await get(`/api/wallets/${busy}`)).body.collections.find(
      (c: { address: string }) => c.address === busiest.address,
    );
    expect(answer.body.holdsNow).toBe(card.holds);
    expect(answer.body.changes).toBe(card.events);
    expect(sums(answer.body.bought)).toEqual(sums(card.bought));
    expect(sums(answer.body.sold)).toEqual(sums(card.sold));

    // Upper case and short forms are the same wallet and collection.
    const loose = await get(
      `/api/wallets/${busy.toUpperCase().replace('0X', '0x')}/collections/${busiest.address}?interval=month`,
    );
    expect(loose.body.interval).toBe('month');
    expect(loose.body.holdsNow).toBe(card.holds);

    for (const [bad, message] of [
      [`/api/wallets/nope/collections/${busiest.address}`, /wallet address/],
      [`/api/wallets/${busy}/collections/0xzz`, /collection address/],
      [`${path}?interval=hour`, /interval must be one of day, week, month/],
      [`${path}?limit=5`, /Unknown parameter: limit/],
    ] as const) {
      const refused = await get(bad);
      expect(refused.status).toBe(400);
      expect(refused.body.error.message).toMatch(message);
    }
  }, 120_000);
});
