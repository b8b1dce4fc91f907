import type { CurrencyTrades, WalletCollection } from './answers';

/** A wallet across every collection of its answer: each currency apart, never summed together. */
export interface WalletTotals {
  holds: number;
  /** What it paid, per currency (its purchases). */
  spent: CurrencyTrades[];
  /** What it was paid, per currency (its sales). */
  received: CurrencyTrades[];
  flaggedSales: number;
}

export function walletTotals(collections: readonly WalletCollection[]): WalletTotals {
  return {
    holds: collections.reduce((sum, c) => sum + c.holds, 0),
    spent: perCurrency(collections.flatMap((c) => c.bought)),
    received: perCurrency(collections.flatMap((c) => c.sold)),
    flaggedSales: collections.reduce((sum, c) => sum + c.flaggedSales, 0),
  };
}

/** Trades of one currency added up, in the order the currencies first come. */
function perCurrency(trades: readonly CurrencyTrades[]): CurrencyTrades[] {
  const byCurrency = new Map<string, CurrencyTrades>();
  for (const trade of trades) {
    const key = `${trade.currency.state}:${trade.currency.address ?? ''}`;
    const sum = byCurrency.get(key);
    byCurrency.set(
      key,
      sum
        ? {
            ...sum,
            sales: sum.sales + trade.sales,
            amount: (BigInt(sum.amount) + BigInt(trade.amount)).toString(),
          }
        : trade,
    );
  }
  return [...byCurrency.values()];
}
