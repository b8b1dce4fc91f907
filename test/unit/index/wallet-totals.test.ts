import { describe, expect, it } from 'vitest';
import { canonicalAddress } from '../../../src/lib/address';
import type { WalletAnswer } from '../../../src/lib/answers';
import { parseBaseUnits } from '../../../src/lib/price';
import { walletTotals } from '../../../src/lib/wallet-totals';
import { generateDataset } from '../../../src/server/sample-service';
import { useIndexedSample } from '../../support/indexed-sample';
import {
  changesOfHands,
  countedCurrency,
  latestTransfers,
  rawRecords,
} from '../../support/raw-records';
import { washBitsOf } from '../../support/wash-rules';

/**
 * A wallet's totals (`/api/wallets/:address` and `walletTotals`): tokens held, spent and
 * received per currency, sales flagged, equal to the same worked out from the service's
 * own records.
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
