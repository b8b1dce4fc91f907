import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { custodyChain, type CustodyEvent } from '../../../src/lib/custody';

const ZERO = `0x${'0'.repeat(64)}`;
const A = `0x${'a'.repeat(64)}`;
const B = `0x${'b'.repeat(64)}`;
const C = `0x${'c'.repeat(64)}`;
const ETH = '0x049d36570d4e46f48e99674bd3fcc84644ddd6b96f7c741b1562b82f9e004dc7';
const USDC = '0x053c91253bc9682c04929ca02ed00b3e423f6710d2ee7e0d5ebb06f3ecf368a8';

const event = (
  kind: CustodyEvent['kind'],
  to: string,
  timestamp: number,
  price?: string,
  currencyAddress?: string,
): CustodyEvent => ({
  kind,
  to,
  timestamp,
  transactionHash: `0x${timestamp.toString(16)}`,
  ...(price !== undefined && { price }),
  ...(currencyAddress !== undefined && { currencyAddress }),
});

describe('a token’s chain of custody', () => {
  it('says how each owner got and let go of the token, and the result in one currency only', () => {
    const chain = custodyChain([
      event('mint', A, 1_000),
      event('sale', B, 2_000, '100', ETH),
      event('sale', C, 2_000 + 3_600, '150', ETH),
      event('sale', A, 200_000, '90', USDC),
      event('transfer', B, 300_000),
      event('burn', ZERO, 400_000),
    ]);
    expect(chain.map((c) => [c.owner, c.acquired.how, c.disposed?.how])).toEqual([
      [A, 'minted', 'sold'],
      [B, 'bought', 'sold'],
      [C, 'bought', 'sold'],
      [A, 'bought', 'sent'],
      [B, 'received', 'burned'],
    ]);
    // Bought for 100 ETH, sold an hour later for 150 ETH: a flip, +50.
    expect(chain[1]).toMatchObject({
      result: { units: '50', currency: ETH },
      flip: true,
      heldSeconds: 3_600,
    });
    // Bought in ETH, sold in USDC: no result, whatever the amounts.
    expect(chain[2]?.result).toBeUndefined();
    expect(chain[2]?.flip).toBe(false);
    // Minted, not bought: no result.
    expect(chain[0]?.result).toBeUndefined();
  });

  it('counts a sale naming no currency as ETH, marked assumed: bought in ETH, sold in ETH*', () => {
    const chain = custodyChain([
      event('sale', A, 1_000, '2988700000000000000', ETH),
      event('sale', B, 90_000, '85100000000000000'),
      event('sale', C, 200_000, '100000000000000000'),
    ]);
    expect(chain[0]).toMatchObject({
      acquired: { price: { units: '2988700000000000000', currency: ETH } },
      disposed: { price: { units: '85100000000000000', currency: ETH, assumed: true } },
      result: { units: '-2903600000000000000', currency: ETH, assumed: true },
    });
    expect(chain[0]!.acquired.price).not.toHaveProperty('assumed');
    // Both in ETH*: a result in ETH, marked.
    expect(chain[1]!.result).toEqual({ units: '14900000000000000', currency: ETH, assumed: true });
  });

  it('adds up: the results of a run of sales in one currency are the last price less the first', () => {
    fc.assert(
      fc.property(
        fc.array(fc.bigInt({ min: 0n, max: 10n ** 24n }), { minLength: 2, maxLength: 12 }),
        (prices) => {
          const owners = [A, B, C];
          const events = [
            event('mint', A, 0),
            ...prices.map((price, index) =>
              event('sale', owners[(index + 1) % 3]!, (index + 1) * 1_000, price.toString(), ETH),
            ),
          ];
          const results = custodyChain(events)
            .map((custody) => custody.result)
            .filter((result) => result !== undefined);
          expect(results).toHaveLength(prices.length - 1);
          const total = results.reduce((sum, result) => sum + BigInt(result.units), 0n);
          expect(total).toBe(prices.at(-1)! - prices[0]!);
        },
      ),
    );
  });
});
