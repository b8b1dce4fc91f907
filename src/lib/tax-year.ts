import type { CurrencyRef } from './answers';
import { exactAmount } from './price';
import type { ExportRow } from './export';
import { quoteParam, refused, taken, type Reading } from './param-reading';
import { fail, ok, type Parsed } from './result';
import { toIso } from './time';
import { DAY } from './utc';

/**
 * A wallet's year for taxes: each token it sold in a UTC calendar year, with when and how
 * it came to the wallet (bought at a price, minted or received: then its cost is not
 * known and no result is made up from zero), when and for what it went, and the result
 * in the one currency of both. Prices are the service's, gross: it says nothing of fees.
 */

/** Years are read from the start of unix time to the current one; nothing is sold later. */
export const FIRST_TAX_YEAR = 1970;

export const GROSS_NOTE =
  'Gross: prices as the service gives them. Marketplace fees, royalties and network fees are not known, so they are not taken off.';

export const TAX_YEAR_COUNTED =
  'A token counts in the year its sale from the wallet happened (UTC). Its cost is what the wallet paid when it last came to the wallet, in the same currency; a token that came by mint or transfer has no known cost (cost unknown, no result), and one bought in another currency has no result (amounts are never converted). A sale to the wallet itself is not a sale. Tokens, not ERC1155 copies.';

/** The year a reading of `text` gives, or why it gives none; `current` is the latest allowed. */
export function parseTaxYear(text: string, current: number): Parsed<number> {
  const trimmed = text.trim();
  if (!/^[0-9]{4}$/.test(trimmed)) {
    return fail(
      `“${trimmed.slice(0, 20)}” is not a year: write it with four digits, like ${current}.`,
    );
  }
  const year = Number(trimmed);
  if (year < FIRST_TAX_YEAR || year > current) {
    return fail(
      `${year} is outside the years there can be sales in: ${FIRST_TAX_YEAR} to ${current}.`,
    );
  }
  return ok(year);
}

/** A link's `year=` as the wallet's page reads it: a year it cannot take says so, and the current one is shown. */
export function readTaxYear(value: string | null, current: number): Reading<number | null> {
  if (!value) return taken(null);
  const year = parseTaxYear(value, current);
  return year.ok
    ? taken(year.value === current ? null : year.value)
    : refused(
        null,
        `${quoteParam('year', value)}: ${year.error} The sales of ${current} are shown.`,
      );
}

/** The current UTC year at `nowMs`. */
export const utcYear = (nowMs: number) => new Date(nowMs).getUTCFullYear();

/** The year's span in unix seconds: from its first second, to the next year's first. */
export function taxYearSpan(year: number): { from: number; to: number } {
  return { from: Date.UTC(year, 0, 1) / 1000, to: Date.UTC(year + 1, 0, 1) / 1000 };
}

/** An amount in a currency, in base units (signed for a result). */
export interface TaxAmount {
  units: string;
  currency: CurrencyRef;
  /** The sale named no currency: ETH is assumed (ETH*). */
  assumed: boolean;
}

/** One token sold in the year. */
export interface TaxYearSale {
  collection: { address: string; name: string | null };
  tokenId: string;
  /** How it last came to the wallet, when, and for what when bought. */
  acquired: { how: 'minted' | 'bought' | 'received'; at: number; price: TaxAmount | null };
  sold: { at: number; price: TaxAmount };
  /** Whole days between coming and going. */
  heldDays: number;
  /** Sold minus bought in the one currency of both; null when the cost is unknown or in another currency. */
  result: TaxAmount | null;
  /** Why there is no result: `unknown-cost` (minted or received) or `other-currency`. */
  noResult: 'unknown-cost' | 'other-currency' | null;
}

/** A currency's totals over the year's sales in it. */
export interface TaxYearTotal {
  currency: CurrencyRef;
  /** Tokens sold in the currency, and what they brought. */
  sales: number;
  proceeds: string;
  /** Those with a result: how many, what they cost, what they brought, and the sum. */
  withResult: number;
  cost: string;
  resultProceeds: string;
  result: string;
  /** Those sold without a known cost (minted or received), and bought in another currency. */
  unknownCost: number;
  otherCurrency: number;
}

/** `GET /api/wallets/:address/tax-year?year=`. */
export interface TaxYearAnswer {
  address: string;
  year: number;
  from: number;
  to: number;
  /** Oldest sale first. */
  sales: TaxYearSale[];
  totals: TaxYearTotal[];
  gross: string;
  counted: string;
  covers: string;
}

export const heldDaysOf = (from: number, to: number) => Math.floor((to - from) / DAY);

/** The year's totals per currency of sale, the most sales first. */
export function taxYearTotals(sales: readonly TaxYearSale[]): TaxYearTotal[] {
  const totals = new Map<string, TaxYearTotal & { sums: bigint[] }>();
  for (const sale of sales) {
    const { currency } = sale.sold.price;
    let total = totals.get(currency.address);
    if (!total) {
      total = {
        currency,
        sales: 0,
        proceeds: '0',
        withResult: 0,
        cost: '0',
        resultProceeds: '0',
        result: '0',
        unknownCost: 0,
        otherCurrency: 0,
        // proceeds, cost, result's proceeds, result
        sums: [0n, 0n, 0n, 0n],
      };
      totals.set(currency.address, total);
    }
    const got = BigInt(sale.sold.price.units);
    total.sales += 1;
    total.sums[0]! += got;
    if (sale.result && sale.acquired.price) {
      total.withResult += 1;
      total.sums[1]! += BigInt(sale.acquired.price.units);
      total.sums[2]! += got;
      total.sums[3]! += BigInt(sale.result.units);
    } else if (sale.noResult === 'other-currency') total.otherCurrency += 1;
    else total.unknownCost += 1;
  }
  return [...totals.values()]
    .map(({ sums, ...total }) => ({
      ...total,
      proceeds: sums[0]!.toString(),
      cost: sums[1]!.toString(),
      resultProceeds: sums[2]!.toString(),
      result: sums[3]!.toString(),
    }))
    .sort((a, b) => b.sales - a.sales);
}

/** The file's columns: one line per token sold, amounts exact in the currency's units. */
export const taxYearExportColumns = [
  'collection',
  'collection_name',
  'token_id',
  'acquired_how',
  'acquired_at_utc',
  'cost',
  'cost_currency',
  'sold_at_utc',
  'proceeds',
  'currency',
  'currency_assumed',
  'held_days',
  'result',
  'fees',
  'note',
] as const;

/** An amount as the file says it: in the currency's own units, base units when they are unknown. */
const amountText = (amount: TaxAmount) => {
  const { decimals } = amount.currency;
  if (decimals === undefined) return amount.units;
  const units = BigInt(amount.units);
  const text = exactAmount(units < 0n ? -units : units, decimals);
  return units < 0n ? `-${text}` : text;
};

/** A currency as the file names it: its symbol, or its address with base units. */
const currencyText = (amount: TaxAmount) =>
  amount.currency.symbol ?? `${amount.currency.address} (base units)`;

export function taxYearExportRow(sale: TaxYearSale): ExportRow {
  const paid = sale.acquired.price;
  return {
    collection: sale.collection.address,
    collection_name: sale.collection.name ?? undefined,
    token_id: sale.tokenId,
    acquired_how: sale.acquired.how,
    acquired_at_utc: toIso(sale.acquired.at),
    cost: paid ? amountText(paid) : undefined,
    cost_currency: paid ? currencyText(paid) : undefined,
    sold_at_utc: toIso(sale.sold.at),
    proceeds: amountText(sale.sold.price),
    currency: currencyText(sale.sold.price),
    // The sale's currency, or the result's, was assumed ETH: a sale named none.
    currency_assumed: sale.sold.price.assumed || sale.result?.assumed ? 'yes' : 'no',
    held_days: sale.heldDays,
    result: sale.result ? amountText(sale.result) : undefined,
    // On every line, so a line copied elsewhere still says it.
    fees: 'not known: prices are gross',
    note: noResultText(sale),
  };
}

/** Why a sale has no result, in words; undefined when it has one. */
export function noResultText(sale: TaxYearSale): string | undefined {
  if (sale.noResult === 'other-currency') return 'bought in another currency: no result';
  if (sale.noResult === 'unknown-cost') return `cost unknown (${sale.acquired.how})`;
  return undefined;
}

export const taxYearExportName = (address: string, year: number) =>
  `tax-year-${year}_wallet-${address.slice(0, 10)}`;
