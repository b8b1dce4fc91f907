import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { volumesOf } from '../../../src/server/index/figures';
import { CURRENCIES } from '../../../src/lib/price';

const row = fc.record({
  currency: fc.constantFrom(...CURRENCIES.map((c) => c.address)),
  sales: fc.integer({ min: 1, max: 3 }),
  volume: fc.bigInt({ min: 1n, max: 10n ** 21n }),
});

describe('volumes by currency', () => {
  // The database groups rows in whatever order its plan gives; a rewritten table gave another
  // order for two currencies of one sale each, and the answer changed with it.
  it('come in one order whatever order the grouped rows arrive in', () => {
    fc.assert(
      fc.property(fc.uniqueArray(row, { selector: (r) => r.currency }), (rows) => {
        const asRows = rows.map((r) => ({
          currency: Buffer.from(r.currency.slice(2).padStart(64, '0'), 'hex'),
          sales: String(r.sales),
          volume: r.volume.toString(),
        }));
        expect(volumesOf([...asRows].reverse())).toEqual(volumesOf(asRows));
      }),
    );
  });
});
