import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { CurrencyRef, RealisedResult, WalletCollection } from '../../../src/lib/answers';
import { walletTotals } from '../../../src/lib/wallet-totals';

/**
 * A wallet's realised result over its collections (`walletTotals`): each currency's is
 * the sum of that currency's in every collection, in any order of the collections, and
 * no amount of one currency ever lands in another's.
 */
const CURRENCIES: CurrencyRef[] = [
  { address: `0x${'e'.repeat(64)}`, state: 'known', symbol: 'ETH', decimals: 18 },
  { address: `0x${'5'.repeat(64)}`, state: 'known', symbol: 'STRK', decimals: 18 },
  { address: `0x${'a'.repeat(64)}`, state: 'unknown' },
];

const result = fc
  .record({
    currency: fc.constantFrom(...CURRENCIES),
    tokens: fc.integer({ min: 1, max: 50 }),
    cost: fc.bigInt({ min: 0n, max: 10n ** 24n }),
    proceeds: fc.bigInt({ min: 0n, max: 10n ** 24n }),
    flipShare: fc.double({ min: 0, max: 1, noNaN: true }),
    assumedShare: fc.double({ min: 0, max: 1, noNaN: true }),
  })
  .map((r): RealisedResult => ({
    currency: r.currency,
    tokens: r.tokens,
    cost: r.cost.toString(),
    proceeds: r.proceeds.toString(),
    result: (r.proceeds - r.cost).toString(),
    flips: Math.floor(r.tokens * r.flipShare),
    assumed: Math.floor(r.tokens * r.assumedShare),
  }));

// A collection gives at most one entry per currency, as the server sums them.
const collection: fc.Arbitrary<WalletCollection> = fc
  .uniqueArray(result, { selector: (r) => r.currency.address, maxLength: 3 })
  .map((results): WalletCollection => ({
    address: `0x${'c'.repeat(64)}`,
    name: null,
    symbol: null,
    holds: 0,
    events: 1,
    bought: [],
    sold: [],
    flaggedSales: 0,
    results,
    lastActivity: 1,
  }));

const byCurrency = (results: readonly RealisedResult[]) =>
  new Map(results.map((r) => [r.currency.address, r]));

describe('a wallet’s realised result over its collections', () => {
  it('is, per currency, the sum of each collection’s in that currency, whatever their order', () => {
    fc.assert(
      fc.property(fc.array(collection, { maxLength: 8 }), fc.boolean(), (collections, flip) => {
        const ordered = flip ? [...collections].reverse() : collections;
        const totals = walletTotals(ordered).results;
        const currencies = new Set(collections.flatMap((c) => c.results.map((r) => r.currency)));
        expect(
          totals.map((r) => r.currency).sort((a, b) => (a.address < b.address ? -1 : 1)),
        ).toEqual([...currencies].sort((a, b) => (a.address < b.address ? -1 : 1)));
        for (const total of totals) {
          const parts = collections.flatMap((c) =>
            c.results.filter((r) => r.currency.address === total.currency.address),
          );
          const sum = (pick: (r: RealisedResult) => string | number) =>
            parts.reduce((n, r) => n + BigInt(pick(r)), 0n);
          expect(BigInt(total.tokens)).toBe(sum((r) => r.tokens));
          expect(BigInt(total.cost)).toBe(sum((r) => r.cost));
          expect(BigInt(total.proceeds)).toBe(sum((r) => r.proceeds));
          expect(BigInt(total.result)).toBe(BigInt(total.proceeds) - BigInt(total.cost));
          expect(BigInt(total.flips)).toBe(sum((r) => r.flips));
          expect(BigInt(total.assumed)).toBe(sum((r) => r.assumed));
        }
        // The most tokens first; the same totals in either order of the collections.
        expect(totals.map((r) => r.tokens)).toEqual(
          [...totals.map((r) => r.tokens)].sort((a, b) => b - a),
        );
        expect(byCurrency(totals)).toEqual(byCurrency(walletTotals(collections).results));
      }),
    );
  });
});
