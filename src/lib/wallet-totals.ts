import type { CurrencyRef, CurrencyTrades, RealisedResult, WalletCollection } from './answers';

/** A wallet across every collection of its answer: each currency apart, never summed together. */
export interface WalletTotals {
  holds: number;
  /** What it paid, per currency (its purchases). */
  spent: CurrencyTrades[];
  /** What it was paid, per currency (its sales). */
  received: CurrencyTrades[];
  flaggedSales: number;
  /** Its realised result per currency, the most tokens first. */
  results: RealisedResult[];
}

export function walletTotals(collections: readonly WalletCollection[]): WalletTotals {
  return {
    holds: collections.reduce((sum, c) => sum + c.holds, 0),
    spent: perCurrency(
      collections.flatMap((c) => c.bought),
      addTrades,
    ),
    received: perCurrency(
      collections.flatMap((c) => c.sold),
      addTrades,
    ),
    flaggedSales: collections.reduce((sum, c) => sum + c.flaggedSales, 0),
    results: perCurrency(
      collections.flatMap((c) => c.results),
      addResults,
    ).sort((a, b) => b.tokens - a.tokens),
  };
}

const add = (a: string, b: string) => (BigInt(a) + BigInt(b)).toString();

const addTrades = (sum: CurrencyTrades, trade: CurrencyTrades): CurrencyTrades => ({
  ...sum,
  sales: sum.sales + trade.sales,
  amount: add(sum.amount, trade.amount),
});

const addResults = (sum: RealisedResult, result: RealisedResult): RealisedResult => ({
  ...sum,
  tokens: sum.tokens + result.tokens,
  cost: add(sum.cost, result.cost),
  proceeds: add(sum.proceeds, result.proceeds),
  result: add(sum.result, result.result),
  flips: sum.flips + result.flips,
  assumed: sum.assumed + result.assumed,
});

/** Entries of one currency added up, in the order the currencies first come. */
function perCurrency<T extends { currency: CurrencyRef }>(
  entries: readonly T[],
  sum: (a: T, b: T) => T,
): T[] {
  const byCurrency = new Map<string, T>();
  for (const entry of entries) {
    const key = `${entry.currency.state}:${entry.currency.address}`;
    const so = byCurrency.get(key);
    byCurrency.set(key, so ? sum(so, entry) : entry);
  }
  return [...byCurrency.values()];
}
