import { describe, expect, it } from 'vitest';
import { currencyRef } from '../../../src/server/index/figures';
import type { RankedContract } from '../../../src/lib/answers';
import { matchingRanking, rankedBy } from '../../../src/server/index/rankings';

/** The ranking's order: exact amounts of the one currency asked for, ties by address. */
const USDC = '0x053c91253bc9682c04929ca02ed00b3e423f6710d2ee7e0d5ebb06f3ecf368a8';
const ETH = '0x049d36570d4e46f48e99674bd3fcc84644ddd6b96f7c741b1562b82f9e004dc7';

const contract = (
  address: string,
  volumes: [string, string][],
  sales = 1,
  extra: Partial<RankedContract> = {},
): RankedContract => ({
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
  washSales: 0,
  ...extra,
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

describe('collections with no activity in the window', () => {
  // Active ones: a few events, no sale; many events and sales; and the empty ones, some
  // with figures that would lead an ascending sort (no holders, no name, no time).
  const rows = [
    contract('0x1', [[USDC, '700']], 3, { name: 'Beta', holders: 9, lastActivity: 500 }),
    contract('0x2', [], 0, { events: 4, name: 'alpha', holders: 2, lastActivity: 900 }),
    contract('0x3', [], 0, { name: null, holders: 0, lastActivity: null }),
    contract('0x4', [], 0, { name: 'Aardvark', holders: 50, lastActivity: 100 }),
    contract('0x5', [[USDC, '90']], 1, { name: 'Zed', holders: 1, lastActivity: 700 }),
  ];
  const active = new Set(['0x1', '0x2', '0x5']);

  it.each(['events', 'sales', 'volume', 'holders', 'last', 'name'] as const)(
    'never lead a sort by %s, in either direction',
    (id) => {
      for (const desc of [true, false]) {
        const order = rankedBy(rows, { id, desc }, USDC).map((row) => row.address);
        expect(order.slice(0, 3).every((address) => active.has(address))).toBe(true);
        expect(order.slice(3).sort()).toEqual(['0x3', '0x4']);
      }
    },
  );

  it('keep the sort among themselves, and the active ones theirs', () => {
    expect(rankedBy(rows, { id: 'name', desc: false }, USDC).map((r) => r.address)).toEqual([
      '0x2',
      '0x1',
      '0x5',
      '0x3',
      '0x4',
    ]);
    expect(rankedBy(rows, { id: 'holders', desc: true }, USDC).map((r) => r.address)).toEqual([
      '0x1',
      '0x2',
      '0x5',
      '0x4',
      '0x3',
    ]);
  });
});

describe('collections found by text', () => {
  const GALLERY = '0x06058cd4b1e3f5d9ac1b0c6bb21a51e4e4a0e8e1b0ff6ee7bdb5d27a1f6d44b8';
  const rows = [
    contract(GALLERY, [], 1, { name: 'StarkVerse Gallery', symbol: 'SVG' }),
    contract(`0x${'0'.repeat(60)}beef`, [], 1, { name: null, symbol: null }),
    contract(`0x7${'1'.repeat(63)}`, [], 1, { name: 'Pilots', symbol: 'PLT' }),
  ];
  const found = (text: string | undefined) =>
    matchingRanking(rows, text).map((row) => row.name ?? row.address);

  it('by name, symbol or address, ignoring case', () => {
    expect(found('gallery')).toEqual(['StarkVerse Gallery']);
    expect(found('  SVG ')).toEqual(['StarkVerse Gallery']);
    expect(found('plt')).toEqual(['Pilots']);
    expect(found('BEEF')).toEqual([`0x${'0'.repeat(60)}beef`]);
    expect(found('l')).toEqual(['StarkVerse Gallery', 'Pilots']);
    expect(found('no such thing')).toEqual([]);
  });

  it('by an address as typed: its first digits, zeros or not, or its short form', () => {
    for (const typed of ['0x6058', '0x06058', '0x6058…44b8', '0x6058...44B8', GALLERY])
      expect(found(typed), typed).toEqual(['StarkVerse Gallery']);
    expect(found('0xbeef')).toEqual([`0x${'0'.repeat(60)}beef`]);
    // Digits that are not the address's first are no prefix of it.
    expect(found('0x44b8')).toEqual([]);
  });

  it('keeps every row for blank text', () => {
    expect(found(undefined)).toHaveLength(3);
    expect(found('   ')).toHaveLength(3);
  });
});

describe('collections not indexed yet', () => {
  // Their figures are unknown, not zero: whatever the sort, they come after the indexed.
  const quiet = { events: 0, sales: 0, lastActivity: 1_700_000_000, indexedBack: 1_600_000_000 };
  const rows = [
    contract('0x1', [], 0, { ...quiet, name: 'B', holders: 5 }),
    contract('0x2', [], 0, { ...quiet, name: 'C', holders: 9 }),
    contract('0x0', [], 0, { name: 'A', complete: false, indexedBack: null }),
  ];
  it.each([
    ['last', false],
    ['last', true],
    ['name', false],
    ['holders', false],
    ['events', true],
  ] as const)('never lead a quiet window, sorted by %s (descending: %s)', (id, desc) => {
    expect(rankedBy(rows, { id, desc }, USDC).at(-1)!.address).toBe('0x0');
  });
});
