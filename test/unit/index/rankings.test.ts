import { describe, expect, it } from 'vitest';
import { currencyRef } from '../../../src/server/index/figures';
import type { RankedContract } from '../../../src/lib/answers';
import { rankedBy } from '../../../src/server/index/rankings';

/** The ranking's order: exact amounts of the one currency asked for, ties by address. */
const USDC = '0x053c91253bc9682c04929ca02ed00b3e423f6710d2ee7e0d5ebb06f3ecf368a8';
const ETH = '0x049d36570d4e46f48e99674bd3fcc84644ddd6b96f7c741b1562b82f9e004dc7';

const contract = (address: string, volumes: [string, string][], sales = 1): RankedContract => ({
  address,
  name: null,
  symbol: null,
  image: null,
  type: null,
  events: sales,
  sales,
  volume: volumes.map(([currency, volume]) => ({
    currency: currencyRef(Buffer.from(currency.slice(2), 'hex')),
    sales,
    volume,
  })),
  holders: 0,
  lastActivity: null,
  complete: true,
  indexedBack: null,
});

describe('collections ranked by volume', () => {
  it('compares exact base units of the currency asked for, one unit apart included', () => {
    const rows = [
      contract('0xa', [[USDC, '5000000001']]),
      contract('0xb', [[USDC, '5000000002']]),
      // The largest ETH volume counts for nothing in a USDC ranking.
      contract('0xc', [[ETH, '900000000000000000000']]),
      contract('0xd', [[USDC, '5000000001']]),
    ];
    expect(rankedBy(rows, { id: 'volume', desc: true }, USDC).map((r) => r.address)).toEqual([
      '0xb',
      '0xa',
      '0xd',
      '0xc',
    ]);
    expect(rankedBy(rows, { id: 'volume', desc: false }, USDC).map((r) => r.address)).toEqual([
      '0xc',
      '0xa',
      '0xd',
      '0xb',
    ]);
  });
});
