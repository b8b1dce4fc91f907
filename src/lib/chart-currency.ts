import { shortenHex } from './address';
import type { CurrencyRef } from './answers';
import { formatPrice, type Price } from './price';

/**
 * The currencies a chart draws amounts in. Amounts of different currencies are never
 * added or put on one axis: each currency has its own panel, named and scaled here. A
 * sale without a currency is ETH's (`saleCurrency`): it is drawn in ETH's panel.
 */
export interface ChartCurrency {
  /** Tells currencies apart: the contract's address. */
  key: string;
  /** "ETH", "0x0123…cdef". */
  label: string;
  /** Null when unknown: amounts are then base units. */
  decimals: number | null;
  /** The unit an axis counts in: the symbol, or "base units". */
  unit: string;
}

export function currencyOfRef(ref: CurrencyRef): ChartCurrency {
  if (ref.state === 'unknown' || ref.decimals === undefined || ref.symbol === undefined) {
    return { key: ref.address, label: shortenHex(ref.address), decimals: null, unit: 'base units' };
  }
  return { key: ref.address, label: ref.symbol, decimals: ref.decimals, unit: ref.symbol };
}

/** The currency of a sale's price; null when the price cannot be read. */
export function currencyOfPrice(price: Price): ChartCurrency | null {
  switch (price.kind) {
    case 'known':
      return currencyOfRef({
        address: price.currency.address,
        state: 'known',
        symbol: price.currency.symbol,
        decimals: price.currency.decimals,
      });
    case 'unknown':
      return currencyOfRef({ address: price.currencyAddress, state: 'unknown' });
    case 'unreadable':
      return null;
  }
}

/** Base units as a float in the currency's units, for plotting only (never for showing). */
export function plotAmount(units: bigint | string, decimals: number | null): number {
  const value = Number(units);
  return decimals === null ? value : value / 10 ** decimals;
}

/** An exact amount in words, as a price cell says it: "1.25 ETH", "12,500 base units of 0x…". */
export function formatCurrencyAmount(units: bigint | string, ref: CurrencyRef): string {
  const amount = BigInt(units);
  if (ref.state === 'unknown' || ref.decimals === undefined || ref.symbol === undefined) {
    return formatPrice({ kind: 'unknown', units: amount, currencyAddress: ref.address });
  }
  return formatPrice({
    kind: 'known',
    units: amount,
    currency: { symbol: ref.symbol, decimals: ref.decimals, address: ref.address },
    assumed: false,
  });
}

const compact = new Intl.NumberFormat('en', { notation: 'compact', maximumSignificantDigits: 3 });
const byDigits = new Map<number, Intl.NumberFormat>();

/** A value on an amount axis whose ticks are `step` apart: "0.25", "1,500", "2.5M", "4e+21". */
export function formatAxisAmount(value: number, step: number): string {
  if (value >= 1e15) return value.toExponential(1);
  if (value >= 100_000) return compact.format(value);
  const digits = Math.max(0, Math.min(12, -Math.floor(Math.log10(step) + 1e-9)));
  let format = byDigits.get(digits);
  if (!format)
    byDigits.set(digits, (format = new Intl.NumberFormat('en', { maximumFractionDigits: digits })));
  return format.format(value);
}
