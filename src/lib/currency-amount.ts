import { shortenHex } from './address';
import type { CurrencyRef } from './answers';
import { plural } from './format';
import { formatAmount } from './price';

/**
 * An amount in base units in the currency the index names (volumes, a wallet's trades):
 * "12.5 ETH" (with the sales that named none, counted as ETH), or base units of an unknown
 * currency, whose decimals we do not know. Never converted into another currency; `digits`
 * shortens the fraction where room is short (the exact amount then goes in a tooltip).
 */
export function formatCurrencyAmount(
  units: string,
  currency: CurrencyRef,
  digits?: number,
): string {
  const value = BigInt(units);
  if (currency.state === 'unknown' || currency.decimals === undefined) {
    return `${formatAmount(value, 0)} base units of ${shortenHex(currency.address)}`;
  }
  return `${formatAmount(value, currency.decimals, digits)} ${currency.symbol ?? ''}`;
}

/** How many sales named no currency, said once where a collection's volume is. */
export function assumedSalesNote(sales: number): string {
  return `${plural(sales, 'sale')} named no currency: ETH is assumed (ETH*) and ${sales === 1 ? 'it counts' : 'they count'} in ETH's figures.`;
}
