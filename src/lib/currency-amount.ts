import { shortenHex } from './address';
import type { CurrencyRef } from './answers';
import { formatAmount } from './price';

/**
 * An amount in base units in the currency the index names (volumes, a wallet's trades):
 * "12.5 ETH", "3 ETH (assumed)" when the sales named none, or base units of an unknown
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
    return `${formatAmount(value, 0)} base units of ${shortenHex(currency.address ?? '')}`;
  }
  const assumed = currency.state === 'assumed' ? ' (assumed)' : '';
  return `${formatAmount(value, currency.decimals, digits)} ${currency.symbol ?? ''}${assumed}`;
}
