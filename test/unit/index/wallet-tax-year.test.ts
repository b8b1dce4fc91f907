import { describe, expect, it } from 'vitest';
import { canonicalAddress, isZeroAddress } from '../../../src/lib/address';
import type { TaxYearAnswer } from '../../../src/lib/tax-year';
import { generateDataset } from '../../../src/server/sample-service';
import { useIndexedSample } from '../../support/indexed-sample';
import {
  changesOfHands,
  countedCurrency,
  rawRecords,
  type RawChange,
} from '../../support/raw-records';

/**
 * A wallet's year for taxes (`/api/wallets/:address/tax-year` and its CSV): every token it
 * sold in the year, how it came and for what, the result, and the totals per currency,
 * equal to the same worked out from the service's own records.
 */
const dataset = generateDataset({ seed: 5, contracts: 6, events: 12_000 });
const setUp = useIndexedSample(dataset);

// The currencies of the sample's sales, written out here so the figures do not borrow the app's.
const DECIMALS: Record<string, { symbol: string; decimals: number }> = {
  '0x049d36570d4e46f48e99674bd3fcc84644ddd6b96f7c741b1562b82f9e004dc7': {
    symbol: 'ETH',
    decimals: 18,
  },
  '0x04718f5a0fc34cc1af16a1cdee98ffb20c31f5cd61d6ab07201858f4287c938d': {
    symbol: 'STRK',
    decimals: 18,
  },
  '0x053c91253bc9682c04929ca02ed00b3e423f6710d2ee7e0d5ebb06f3ecf368a8': {
    symbol: 'USDC',
    decimals: 6,
  },
};

interface Expected {
  collection: string;
  token: string;
  how: 'minted' | 'bought' | 'received';
  acquiredAt: number;
  cost: bigint | null;
  costCurrency: string | null;
  soldAt: number;
  proceeds: bigint;
  currency: string;
  assumed: boolean;
  heldDays: number;
  result: bigint | null;
}

const units = (price: unknown) => {
  const text = String(price);
  return /^(0x[0-9a-f]+|[0-9]+)$/i.test(text) ? BigInt(text) : null;
};

/**
 * Every token sold by a wallet to another, from the records alone: within a token, changes
 * by time (a mint first and a burn last at one time); a change to a wallet and the next
 * one, when that is a sale, is a token the wallet sold. It was bought when the change that
 * brought it was a sale (not a mint), and has a result when both named one currency (a
 * sale naming none is ETH's).
 */
function soldFrom(collection: string, changes: RawChange[], into: Map<string, Expected[]>) {
  const rank = (c: RawChange) => (isZeroAddress(c.from) ? 0 : isZeroAddress(c.to) ? 2 : 1);
  const byToken = new Map<string, RawChange[]>();
  for (const c of changes) byToken.set(c.token, [...(byToken.get(c.token) ?? []), c]);
  for (const list of byToken.values()) {
    list.sort((a, b) => a.ts - b.ts || rank(a) - rank(b));
    list.forEach((came, index) => {
      const went = list[index + 1];
      const wallet = canonicalAddress(came.to)!;
      if (!went?.sale || isZeroAddress(went.to) || isZeroAddress(came.to)) return;
      if (canonicalAddress(went.to) === wallet) return;
      const proceeds = units(went.sale.price);
      if (proceeds === null) return;
      const currency = canonicalAddress(countedCurrency(went.sale.currency_address))!;
      const bought = came.sale && !isZeroAddress(came.from) ? came.sale : undefined;
      const cost = bought ? units(bought.price) : null;
      const costCurrency = bought
        ? canonicalAddress(countedCurrency(bought.currency_address))!
        : null;
      const sameCurrency = cost !== null && costCurrency === currency;
      const entry: Expected = {
        collection,
        token: came.token,
        how: isZeroAddress(came.from) ? 'minted' : cost !== null ? 'bought' : 'received',
        acquiredAt: came.ts,
        cost,
        costCurrency: cost !== null ? costCurrency : null,
        soldAt: went.ts,
        proceeds,
        currency,
        assumed: !went.sale.currency_address || (sameCurrency && !bought!.currency_address),
        heldDays: Math.floor((went.ts - came.ts) / 86_400),
        result: sameCurrency ? proceeds - cost : null,
      };
      into.set(wallet, [...(into.get(wallet) ?? []), entry]);
    });
  }
}

/** A CSV as rows of named cells (quoted cells with commas and doubled quotes). */
function parseCsv(text: string): Record<string, string>[] {
  const lines: string[][] = [];
  let [row, cell, quoted] = [[] as string[], '', false];
  for (let i = 0; i < text.length; i++) {
    const char = text[i]!;
    if (quoted) {
      if (char === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (char === '"') quoted = false;
      else cell += char;
    } else if (char === '"') quoted = true;
    else if (char === ',') {
      row.push(cell);
      cell = '';
    } else if (char === '\n') {
      row.push(cell);
      lines.push(row);
      [row, cell] = [[], ''];
    } else if (char !== '\r') cell += char;
  }
  const [header = [], ...rest] = lines;
  return rest.map((cells) => Object.fromEntries(header.map((name, i) => [name, cells[i] ?? ''])));
}

/** "1.5" in a currency of 18 decimals as base units; "-0.25" too. */
function baseUnits(text: string, decimals: number): bigint {
  const negative = text.startsWith('-');
  const [whole = '0', fraction = ''] = text.replace(/^-/, '').split('.');
  const value = BigInt(whole + fraction.padEnd(decimals, '0'));
  return negative ? -value : value;
}

const iso = (seconds: number) => new Date(seconds * 1000).toISOString();

describe('a wallet’s year for taxes', () => {
  it('lists, in its answer and its CSV, the tokens sold in the year as the raw records say', async () => {
    const { proxy, service, get } = await setUp('deployed');
    const all = new Map<string, Expected[]>();
    for (const contract of dataset.contracts) {
      await proxy.indexer!.whole(contract.address).done;
      const records = await rawRecords(service, contract.address);
      soldFrom(canonicalAddress(contract.address)!, changesOfHands(records), all);
    }
    const yearOf = (e: Expected) => new Date(e.soldAt * 1000).getUTCFullYear();
    // The wallet and year with the most kinds of line (a result, a gain, a loss, cost
    // unknown, ETH assumed), then the most lines.
    const score = (list: Expected[]) =>
      (list.some((e) => e.result !== null && e.result > 0n) ? 1e6 : 0) +
      (list.some((e) => e.result !== null && e.result < 0n) ? 1e6 : 0) +
      (list.some((e) => e.how !== 'bought') ? 1e6 : 0) +
      (list.some((e) => e.assumed) ? 1e6 : 0) +
      list.length;
    const candidates = [...all].flatMap(([wallet, list]) =>
      [...new Set(list.map(yearOf))].map((year) => ({
        wallet,
        year,
        list: list.filter((e) => yearOf(e) === year),
      })),
    );
    const { wallet, year, list } = candidates.sort((a, b) => score(b.list) - score(a.list))[0]!;
    expect(score(list)).toBeGreaterThan(4e6);

    const { status, body } = await get<TaxYearAnswer>(
      `/api/wallets/${wallet}/tax-year?year=${year}`,
    );
    expect(status).toBe(200);
    expect(body.year).toBe(year);
    expect(body.gross).toMatch(/fees/i);
    const key = (e: { collection: string; token: string; soldAt: number }) =>
      `${e.collection}|${e.token}|${e.soldAt}`;
    const answered = body.sales.map((sale): Expected => ({
      collection: sale.collection.address,
      token: sale.tokenId,
      how: sale.acquired.how,
      acquiredAt: sale.acquired.at,
      cost: sale.acquired.price ? BigInt(sale.acquired.price.units) : null,
      costCurrency: sale.acquired.price?.currency.address ?? null,
      soldAt: sale.sold.at,
      proceeds: BigInt(sale.sold.price.units),
      currency: sale.sold.price.currency.address,
      assumed: sale.sold.price.assumed || (sale.result?.assumed ?? false),
      heldDays: sale.heldDays,
      result: sale.result ? BigInt(sale.result.units) : null,
    }));
    const sorted = (rows: Expected[]) => [...rows].sort((a, b) => (key(a) < key(b) ? -1 : 1));
    expect(sorted(answered)).toEqual(sorted(list));
    // Oldest sale first.
    expect(body.sales.map((s) => s.sold.at)).toEqual(
      [...body.sales.map((s) => s.sold.at)].sort((a, b) => a - b),
    );

    // Totals per currency, from the same records.
    const totals = new Map<
      string,
      {
        sales: number;
        proceeds: bigint;
        cost: bigint;
        result: bigint;
        withResult: number;
        unknown: number;
      }
    >();
    for (const e of list) {
      const t = totals.get(e.currency) ?? {
        sales: 0,
        proceeds: 0n,
        cost: 0n,
        result: 0n,
        withResult: 0,
        unknown: 0,
      };
      t.sales += 1;
      t.proceeds += e.proceeds;
      if (e.result !== null) {
        t.withResult += 1;
        t.cost += e.cost!;
        t.result += e.result;
      } else if (e.cost === null) t.unknown += 1;
      totals.set(e.currency, t);
    }
    expect(
      new Map(
        body.totals.map((t) => [
          t.currency.address,
          {
            sales: t.sales,
            proceeds: BigInt(t.proceeds),
            cost: BigInt(t.cost),
            result: BigInt(t.result),
            withResult: t.withResult,
            unknown: t.unknownCost,
          },
        ]),
      ),
    ).toEqual(totals);

    // The file: one line per token sold, amounts in the currency's units.
    const file = await proxy.app.request(`/api/wallets/${wallet}/tax-year/export?year=${year}`);
    expect(file.status).toBe(200);
    expect(file.headers.get('content-type')).toMatch(/^text\/csv/);
    const lines = parseCsv(await file.text());
    const fromFile = lines.map((line): Expected => {
      const currency = Object.keys(DECIMALS).find((a) => DECIMALS[a]!.symbol === line.currency)!;
      const costCurrency = line.cost_currency
        ? Object.keys(DECIMALS).find((a) => DECIMALS[a]!.symbol === line.cost_currency)!
        : null;
      expect(line.fees).toMatch(/not known/);
      expect(line.note === '').toBe(line.result !== '');
      return {
        collection: line.collection!,
        token: line.token_id!,
        how: line.acquired_how as Expected['how'],
        acquiredAt: Date.parse(line.acquired_at_utc!) / 1000,
        cost: costCurrency ? baseUnits(line.cost!, DECIMALS[costCurrency]!.decimals) : null,
        costCurrency,
        soldAt: Date.parse(line.sold_at_utc!) / 1000,
        proceeds: baseUnits(line.proceeds!, DECIMALS[currency]!.decimals),
        currency,
        assumed: line.currency_assumed === 'yes',
        heldDays: Number(line.held_days),
        result: line.result ? baseUnits(line.result, DECIMALS[currency]!.decimals) : null,
      };
    });
    expect(sorted(fromFile)).toEqual(sorted(list));
    expect(lines.map((line) => line.sold_at_utc)).toEqual(body.sales.map((s) => iso(s.sold.at)));
  });

  it('explains a year it cannot read, and answers none for a year with no sale', async () => {
    const { get } = await setUp('deployed');
    const wallet = '0x' + '0'.repeat(63) + '1';
    for (const [year, said] of [
      ['1800', /1800 is outside the years there can be sales in: 1970 to \d{4}/],
      ['soon', /“soon” is not a year/],
      ['20245', /not a year/],
    ] as const) {
      const { status, body } = await get(`/api/wallets/${wallet}/tax-year?year=${year}`);
      expect(status, year).toBe(400);
      expect(body.error.message).toMatch(said);
    }
    const { status, body } = await get<TaxYearAnswer>(`/api/wallets/${wallet}/tax-year?year=2024`);
    expect(status).toBe(200);
    expect(body.sales).toEqual([]);
    expect(body.totals).toEqual([]);
    expect(body.from).toBe(Date.UTC(2024, 0, 1) / 1000);
  });
});
