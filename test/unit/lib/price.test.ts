import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { eventExportRow, type ExportedEvent } from '../../../src/lib/event-export';
import { sortEvents } from '../../../src/lib/event-list';
import { toCsv } from '../../../src/lib/export';
import {
  CURRENCIES,
  exactAmount,
  formatAmount,
  formatPrice,
  parseAmount,
  parseBaseUnits,
  priceExport,
  readPrice,
  sortByPrice,
} from '../../../src/lib/price';

const [ETH, STRK, USDC] = CURRENCIES.map((currency) => currency.address) as [
  string,
  string,
  string,
];
const UNKNOWN = `0x${'7'.repeat(64)}`;
const hex = (units: bigint) => `0x${units.toString(16).padStart(64, '0')}`;
const priced = (price: string | undefined, currencyAddress?: string, quantity?: string) => ({
  ...(price !== undefined && { price }),
  ...(currencyAddress !== undefined && { currencyAddress }),
  ...(quantity !== undefined && { quantity }),
});
const shown = (price: string, currency?: string) =>
  formatPrice(readPrice(priced(price, currency))!);

describe('prices', () => {
  it('reads decimal and 0x hex base units alike, and nothing else', () => {
    expect(parseBaseUnits('1250000000000000000')).toBe(1_250_000_000_000_000_000n);
    expect(parseBaseUnits(hex(1_250_000_000_000_000_000n))).toBe(1_250_000_000_000_000_000n);
    expect(parseBaseUnits('0X0A')).toBe(10n);
    for (const bad of ['', '1.5', '-1', '0x', 'abc', '0xg1'])
      expect(parseBaseUnits(bad)).toBeNull();
  });

  it.each([
    ['ETH', ETH, '1250000000000000000', '1.25 ETH'],
    ['STRK (hex)', STRK, hex(1_250_000_000_000_000_000n), '1.25 STRK'],
    ['STRK (decimal)', STRK, '4999990000000000000000', '4,999.99 STRK'],
    ['USDC, 6 decimals', USDC, '12500000', '12.5 USDC'],
    ['USDC (hex)', USDC, hex(12_500_000n), '12.5 USDC'],
  ])('shows %s in its own decimals with its symbol', (_name, currency, price, text) => {
    expect(shown(price, currency)).toBe(text);
  });

  it('assumes ETH when no currency is named, and marks it ETH*', () => {
    const price = readPrice(priced(hex(500_000_000_000_000_000n)));
    expect(price).toMatchObject({ kind: 'known', assumed: true, currency: { symbol: 'ETH' } });
    expect(formatPrice(price!)).toBe('0.5 ETH*');
  });

  it('gives an unknown currency’s base units and address, never an 18-decimal guess', () => {
    const price = readPrice(priced(hex(1_234_000_000_000_000_000n), UNKNOWN));
    expect(price).toEqual({
      kind: 'unknown',
      units: 1_234_000_000_000_000_000n,
      currencyAddress: UNKNOWN,
    });
    expect(formatPrice(price!)).toBe('1,234,000,000,000,000,000 base units of 0x7777…7777');
  });

  it('shows what it cannot read as it came, and no price as none', () => {
    expect(shown('1.5e18', ETH)).toBe('1.5e18');
    expect(readPrice({})).toBeNull();
  });

  it('rounds nothing silently: long fractions are marked, tiny amounts bounded', () => {
    expect(formatAmount(123_456_789_000_000_000n, 18)).toBe('≈ 0.123456');
    expect(formatAmount(1n, 18)).toBe('< 0.000001');
    expect(formatAmount(0n, 18)).toBe('0');
    expect(formatAmount(10n ** 30n, 18)).toBe('1,000,000,000,000');
  });

  it('exports amount, symbol, currency address, base units and quantity as exact strings', () => {
    expect(priceExport(priced(hex(1_234_567_890_123_456_789n), STRK, '3'))).toEqual({
      price_amount: '1.234567890123456789',
      price_symbol: 'STRK',
      currency_address: STRK,
      currency_assumed: 'no',
      price_base_units: '1234567890123456789',
      quantity: '3',
    });
    // The price as sent only where it is no number: otherwise the base units say it.
    expect(priceExport(priced('12 ETH'))).toEqual({ price_as_sent: '12 ETH', quantity: undefined });
    expect(priceExport(priced('20000000000000000'))).toMatchObject({
      price_amount: '0.02',
      price_symbol: 'ETH',
      currency_address: ETH,
      currency_assumed: 'yes',
    });
    const unknown = priceExport(priced('42', UNKNOWN));
    expect(unknown).toMatchObject({ currency_address: UNKNOWN, price_base_units: '42' });
    expect(unknown).not.toHaveProperty('price_amount');
    expect(unknown).not.toHaveProperty('price_symbol');
  });

  it('writes the export’s price columns into the CSV', () => {
    const event = {
      key: 'k',
      eventId: 'e',
      kind: 'sale',
      label: 'sale',
      contractAddress: ETH,
      from: STRK,
      to: USDC,
      tokenId: '1',
      timestamp: 1,
      transactionHash: UNKNOWN,
      tokenIdHex: '0x1',
      records: 'transfer+sale',
      ...priced(String(12_500_000n), USDC, '2'),
    } satisfies ExportedEvent;
    const csv = toCsv(
      [eventExportRow(event)],
      ['price_amount', 'price_symbol', 'price_base_units', 'quantity'],
    );
    expect(csv.split('\r\n')[1]).toBe('12.5,USDC,12500000,2');
  });
});

describe('sorting by price', () => {
  const events = [
    priced('3000000', USDC), // 3 USDC
    priced('2000000000000000000', STRK), // 2 STRK
    priced(hex(1_000_000_000_000_000_000n), ETH), // 1 ETH, hex
    priced('500', UNKNOWN),
    priced(undefined), // not a sale
    priced('900000000000000000'), // 0.9 ETH, assumed
    priced(hex(10_000_000n), USDC), // 10 USDC: a longer decimal string than 3 USDC, in hex
    priced('30000000000000000000'), // 30 ETH, assumed
  ];
  const label = (event: (typeof events)[number]) =>
    event.price ? formatPrice(readPrice(event)!) : '—';

  it('groups by currency, orders amounts within each, and puts unknown currencies last', () => {
    expect(sortByPrice(events, false).map(label)).toEqual([
      '0.9 ETH*',
      '1 ETH',
      '30 ETH*',
      '2 STRK',
      '3 USDC',
      '10 USDC',
      '500 base units of 0x7777…7777',
      '—',
    ]);
  });

  it('keeps the groups in their order when descending, amounts reversed within them', () => {
    expect(sortByPrice(events, true).map(label)).toEqual([
      '30 ETH*',
      '1 ETH',
      '0.9 ETH*',
      '2 STRK',
      '10 USDC',
      '3 USDC',
      '500 base units of 0x7777…7777',
      '—',
    ]);
  });

  it('is the order of the events table and its export', () => {
    const rows = events.map((event, index) => ({
      kind: 'sale' as const,
      label: 'sale',
      from: ETH,
      to: STRK,
      tokenId: String(index),
      timestamp: index,
      ...event,
    }));
    expect(sortEvents(rows, { id: 'price', desc: false }).map(label)).toEqual(
      sortByPrice(events, false).map(label),
    );
  });
});

describe('an amount typed in a currency’s units', () => {
  it('is exact base units, or says why not', () => {
    expect(parseAmount('0.5', 18, 'ETH')).toEqual({ ok: true, value: 500_000_000_000_000_000n });
    expect(parseAmount(' 12 ', 6, 'USDC')).toEqual({ ok: true, value: 12_000_000n });
    expect(parseAmount('.25', 6, 'USDC')).toEqual({ ok: true, value: 250_000n });
    expect(parseAmount('7.', 0, 'base units')).toEqual({ ok: true, value: 7n });
    expect(parseAmount('0.0000001', 6, 'USDC')).toEqual({
      ok: false,
      error: 'USDC has 6 decimals: at most 6 digits after the point.',
    });
    expect(parseAmount('1.5', 0, 'base units')).toEqual({
      ok: false,
      error: 'Enter a whole number of base units.',
    });
    expect(parseAmount('-1', 18, 'ETH')).toEqual({ ok: false, error: 'A price is not below 0.' });
    for (const text of ['', 'two', '1,000', '1e3', '0x10', '1.2.3', '9'.repeat(41)]) {
      expect(parseAmount(text, 18, 'ETH').ok).toBe(false);
    }
  });

  it('reads back any amount as written exactly', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 0n, max: 10n ** 39n }),
        fc.constantFrom(0, 6, 18),
        (units, d) => {
          expect(parseAmount(exactAmount(units, d), d, 'X')).toEqual({ ok: true, value: units });
        },
      ),
    );
  });
});
