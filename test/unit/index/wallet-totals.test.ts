import { describe, expect, it } from 'vitest';
import { canonicalAddress, isZeroAddress } from '../../../src/lib/address';
import type { WalletAnswer, WalletInCollectionAnswer } from '../../../src/lib/answers';
import { parseBaseUnits } from '../../../src/lib/price';
import { walletTotals } from '../../../src/lib/wallet-totals';
import { generateDataset } from '../../../src/server/sample-service';
import { useIndexedSample } from '../../support/indexed-sample';
import {
  changesOfHands,
  countedCurrency,
  latestTransfers,
  rawRecords,
  type RawChange,
} from '../../support/raw-records';
import { resultsByCurrency } from '../../support/realised-results';
import { washBitsOf } from '../../support/wash-rules';

/**
 * A wallet's totals (`/api/wallets/:address` and `walletTotals`): tokens held, spent and
 * received per currency, sales flagged, and the realised result per currency across every
 * collection, equal to the same worked out from the service's own records.
 */
const dataset = generateDataset({ seed: 5, contracts: 6, events: 12_000 });
const busiest = [...dataset.contracts].sort((a, b) => b.eventCount - a.eventCount)[0]!;
const setUp = useIndexedSample(dataset);

describe('a wallet’s totals', () => {
  it('equal those of the raw records', async () => {
    const { proxy, service, get } = await setUp('deployed');
    await proxy.indexer!.whole(busiest.address).done;
    const records = await rawRecords(service, busiest.address);
    const sales = changesOfHands(records)
      .filter((change) => change.sale)
      .map((change) => ({
        ...change,
        from: canonicalAddress(change.from)!,
        to: canonicalAddress(change.to)!,
        sale: change.sale!,
      }));
    const bits = washBitsOf(sales);
    // The wallet with the most flagged sales.
    const flaggedOf = (wallet: string) =>
      sales.filter((s) => (s.from === wallet || s.to === wallet) && bits.get(s)! !== 0).length;
    const wallets = [...new Set(sales.flatMap((s) => [s.from, s.to]))];
    const wallet = wallets.sort((a, b) => flaggedOf(b) - flaggedOf(a))[0]!;
    expect(flaggedOf(wallet)).toBeGreaterThan(0);

    const sum = (side: 'from' | 'to') => {
      const byCurrency = new Map<string, bigint>();
      for (const s of sales) {
        if (s[side] !== wallet || s.from === s.to) continue;
        const currency = canonicalAddress(countedCurrency(s.sale.currency_address))!;
        byCurrency.set(
          currency,
          (byCurrency.get(currency) ?? 0n) + (parseBaseUnits(String(s.sale.price)) ?? 0n),
        );
      }
      return byCurrency;
    };
    const held = [...latestTransfers(records, Infinity).values()].filter(
      (r) => canonicalAddress(r.to_address!) === wallet,
    ).length;

    const { status, body } = await get<WalletAnswer>(`/api/wallets/${wallet}`);
    expect(status).toBe(200);
    const totals = walletTotals(body.collections);
    const amounts = (list: typeof totals.spent) =>
      new Map(list.map((t) => [t.currency.address, BigInt(t.amount)]));
    expect(totals.holds).toBe(held);
    expect(amounts(totals.spent)).toEqual(sum('to'));
    expect(amounts(totals.received)).toEqual(sum('from'));
    expect(totals.flaggedSales).toBe(flaggedOf(wallet));
  });
});

const DAY = 86_400;

interface ExpectedResult {
  tokens: number;
  cost: bigint;
  proceeds: bigint;
  flips: number;
  assumed: number;
}

/**
 * The realised result of every wallet per collection and currency, from the records
 * alone: each change that brought a token to a wallet by a sale and the token's next
 * change, when that is a sale in the same currency (a sale naming none is ETH's). Within a
 * token, changes go by time; a mint before and a burn after anything else at one time.
 */
function resultsFrom(changes: RawChange[], collection: number, into: ResultsByWallet) {
  const rank = (c: RawChange) => (isZeroAddress(c.from) ? 0 : isZeroAddress(c.to) ? 2 : 1);
  const byToken = new Map<string, RawChange[]>();
  for (const c of changes) byToken.set(c.token, [...(byToken.get(c.token) ?? []), c]);
  for (const list of byToken.values()) {
    list.sort((a, b) => a.ts - b.ts || rank(a) - rank(b));
    list.forEach((bought, index) => {
      const sold = list[index + 1];
      if (!bought.sale || !sold?.sale) return;
      const currency = canonicalAddress(countedCurrency(bought.sale.currency_address))!;
      if (canonicalAddress(countedCurrency(sold.sale.currency_address)) !== currency) return;
      const [cost, proceeds] = [bought.sale.price, sold.sale.price].map((price) =>
        parseBaseUnits(String(price)),
      );
      if (cost === null || cost === undefined || proceeds === null || proceeds === undefined)
        return;
      const wallet = canonicalAddress(bought.to)!;
      const collections = into.get(wallet) ?? new Map<number, Map<string, ExpectedResult>>();
      into.set(wallet, collections);
      const results = collections.get(collection) ?? new Map<string, ExpectedResult>();
      collections.set(collection, results);
      const entry = results.get(currency) ?? {
        tokens: 0,
        cost: 0n,
        proceeds: 0n,
        flips: 0,
        assumed: 0,
      };
      entry.tokens += 1;
      entry.cost += cost;
      entry.proceeds += proceeds;
      if (sold.ts - bought.ts < DAY) entry.flips += 1;
      if (!bought.sale.currency_address || !sold.sale.currency_address) entry.assumed += 1;
      results.set(currency, entry);
    });
  }
}
type ResultsByWallet = Map<string, Map<number, Map<string, ExpectedResult>>>;

/** Per currency over every collection. */
function summed(collections: Map<number, Map<string, ExpectedResult>>) {
  const total = new Map<string, ExpectedResult>();
  for (const results of collections.values()) {
    for (const [currency, r] of results) {
      const sum = total.get(currency);
      total.set(
        currency,
        sum
          ? {
              tokens: sum.tokens + r.tokens,
              cost: sum.cost + r.cost,
              proceeds: sum.proceeds + r.proceeds,
              flips: sum.flips + r.flips,
              assumed: sum.assumed + r.assumed,
            }
          : r,
      );
    }
  }
  return total;
}

describe('a wallet’s realised result across collections', () => {
  it('equals that of the raw records, per currency, and each collection’s its own page’s', async () => {
    const { proxy, service, get } = await setUp('deployed');
    const all: ResultsByWallet = new Map();
    for (const [index, contract] of dataset.contracts.entries()) {
      await proxy.indexer!.whole(contract.address).done;
      resultsFrom(changesOfHands(await rawRecords(service, contract.address)), index, all);
    }
    // A wallet with results in more than one collection, flips and ETH assumed, then the most tokens.
    const score = (wallet: string) => {
      const results = [...summed(all.get(wallet)!).values()];
      const tokens = results.reduce((n, r) => n + r.tokens, 0);
      const flips = results.some((r) => r.flips > 0);
      const assumed = results.some((r) => r.assumed > 0);
      return (
        (all.get(wallet)!.size > 1 ? 4e6 : 0) + (flips ? 2e6 : 0) + (assumed ? 1e6 : 0) + tokens
      );
    };
    const wallet = [...all.keys()].sort((a, b) => score(b) - score(a))[0]!;
    const want = summed(all.get(wallet)!);
    expect(all.get(wallet)!.size).toBeGreaterThan(1);
    expect([...want.values()].some((r) => r.flips > 0)).toBe(true);
    expect([...want.values()].some((r) => r.assumed > 0)).toBe(true);

    const { body } = await get<WalletAnswer>(`/api/wallets/${wallet}`);
    const totals = walletTotals(body.collections);
    expect(resultsByCurrency(totals.results)).toEqual(want);

    // Each collection's part is what the wallet's page in that collection says.
    for (const collection of body.collections) {
      const inside = await get<WalletInCollectionAnswer>(
        `/api/wallets/${wallet}/collections/${collection.address}`,
      );
      expect(resultsByCurrency(collection.results)).toEqual(resultsByCurrency(inside.body.results));
    }
  });
});
