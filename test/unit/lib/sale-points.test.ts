import { describe, expect, it } from 'vitest';
import type { EventRow } from '../../../src/lib/answers';
import {
  currencyOfRef,
  formatAxisAmount,
  formatCurrencyAmount,
  plotAmount,
} from '../../../src/lib/chart-currency';
import { CURRENCIES } from '../../../src/lib/price';
import { groupSales, priceAxisTop } from '../../../src/lib/sale-points';

const [ETH, STRK] = CURRENCIES;
const sale = (id: number, price: string, currencyAddress?: string, kind = 'sale') =>
  ({
    id: String(id),
    kind,
    timestamp: 1_750_000_000 - id,
    tokenId: String(id),
    price,
    currencyAddress,
  }) as EventRow;

describe('groupSales', () => {
  it('groups by currency, the most sales first, oldest first; unreadable prices counted', () => {
    const { groups, unreadable } = groupSales([
      sale(1, '1000000000000000000', ETH!.address),
      sale(2, '5', STRK!.address),
      sale(3, '2000000000000000000', ETH!.address),
      sale(4, 'lots', ETH!.address),
      sale(5, '3000000000000000000'),
      sale(6, '1', undefined, 'transfer'),
    ]);
    expect(
      groups.map((group) => [group.currency.label, group.points.map((p) => p.row.id)]),
    ).toEqual([
      // A sale naming no currency is ETH's (assumed): drawn in ETH's panel.
      ['ETH', ['5', '3', '1']],
      ['STRK', ['2']],
    ]);
    expect(groups[0]!.points.map((point) => point.value)).toEqual([3, 2, 1]);
    expect(unreadable).toBe(1);
  });
});

describe('priceAxisTop', () => {
  it('reaches the highest price, unless a few are far above the rest', () => {
    expect(priceAxisTop([1, 2, 3, 100])).toBe(100);
    const many = [...Array.from({ length: 40 }, (_, k) => 1 + k / 40), 500];
    expect(priceAxisTop(many)).toBeLessThan(3);
    expect(priceAxisTop([])).toBe(0);
  });
});

describe('chart currencies', () => {
  it('names each currency', () => {
    expect(
      currencyOfRef({ address: ETH!.address, state: 'known', symbol: 'ETH', decimals: 18 }).key,
    ).toBe(ETH!.address);
    expect(currencyOfRef({ address: '0x0123456789abcdef', state: 'unknown' })).toMatchObject({
      decimals: null,
      unit: 'base units',
    });
  });

  it('says amounts exactly and plots them as floats in the currency’s units', () => {
    const ref = { address: STRK!.address, state: 'known', symbol: 'STRK', decimals: 18 } as const;
    expect(formatCurrencyAmount('1250000000000000000000', ref)).toBe('1,250 STRK');
    expect(plotAmount('1250000000000000000000', 18)).toBe(1250);
    expect(formatAxisAmount(0.5, 0.5)).toBe('0.5');
    expect(formatAxisAmount(2_500_000, 500_000)).toBe('2.5M');
  });
});
