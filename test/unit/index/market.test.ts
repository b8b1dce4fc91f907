import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CURRENCIES } from '../../../src/lib/price';
import type { MarketFigures } from '../../../src/lib/answers';
import { migrations } from '../../../src/server/database/migrations';
import {
  FIRST_SALE_BUCKETS,
  market,
  TOP_SALES,
  type MarketSpan,
} from '../../../src/server/index/market';
import { countedCurrency } from '../../support/raw-records';
import { washBitsOf } from '../../support/wash-rules';
import { emptyIndex, useIndexDatabase } from './index-harness';
import {
  CONTRACT,
  deliver,
  delivery,
  hex64,
  history,
  ingestPages,
  recordsOf,
  WALLETS,
  ZERO,
  type Change,
} from './history';

/**
 * The market of a collection over a random history delivered in pages in any order (some
 * twice), and a random span (on whole hours, read from the hourly totals, or not, read
 * from the rows), with flagged sales counted or left out: every figure equals the one
 * computed here from the history itself (the flags by the rules of wash-rules.ts).
 */
const HOUR = 3_600;

const db = useIndexDatabase();

type Span = MarketSpan;

/** The currencies in the order the answer lists them: known ones, then others. */
const currencyRank = (key: string) => {
  const known = CURRENCIES.findIndex((currency) => currency.address === key);
  return known >= 0 ? known : CURRENCIES.length;
};
/** A sale naming no currency counts as ETH. */
const currencyKey = (change: Change) => countedCurrency(change.currency);

/** Linear between the closest ranks, as PostgreSQL's percentile_cont. */
function percentile(sorted: number[], p: number): number {
  const at = p * (sorted.length - 1);
  const low = Math.floor(at);
  const high = Math.ceil(at);
  return sorted[low]! + (sorted[high]! - sorted[low]!) * (at - low);
}

/** The market, computed from the history. */
function expectedMarket(changes: Change[], span: Span) {
  const inSpan = (ts: number) =>
    (span.from === undefined || ts >= span.from) && (span.to === undefined || ts < span.to);
  const flags = washBitsOf(changes.filter((change) => change.kind === 'sale'));
  const counted = (change: Change) =>
    change.kind === 'sale' && !(span.excludeWash && flags.get(change)! !== 0);
  const sales = changes.filter((change) => counted(change) && inSpan(change.ts));

  const byCurrency = new Map<string, Change[]>();
  for (const sale of sales)
    byCurrency.set(currencyKey(sale), [...(byCurrency.get(currencyKey(sale)) ?? []), sale]);
  const topSales = [...byCurrency.entries()]
    .sort(([a], [b]) => currencyRank(a) - currencyRank(b) || a.localeCompare(b))
    .map(([key, list]) => [
      key,
      list
        .map((sale) => sale.price!)
        .sort((a, b) => (a < b ? 1 : a > b ? -1 : 0))
        .slice(0, TOP_SALES)
        .map(String),
    ]);

  const totals = new Map<string, bigint>();
  for (const sale of sales)
    totals.set(currencyKey(sale), (totals.get(currencyKey(sale)) ?? 0n) + sale.price!);
  const markets = new Map<string, Map<string, { sales: number; volume: bigint }>>();
  for (const sale of sales) {
    const name = sale.marketplace || 'none named';
    const market = markets.get(name) ?? new Map<string, { sales: number; volume: bigint }>();
    const entry = market.get(currencyKey(sale)) ?? { sales: 0, volume: 0n };
    entry.sales += 1;
    entry.volume += sale.price!;
    market.set(currencyKey(sale), entry);
    markets.set(name, market);
  }

  // Each token's holder now: the receiver of its latest change (none when burned).
  const holder = new Map<number, string>();
  for (const change of [...changes].sort((a, b) => a.ts - b.ts))
    holder.set(change.token, change.to);
  const holding = new Set([...holder.values()].filter((owner) => owner !== ZERO));
  // Each token's first mint, counted when it lies in the span.
  const firstMints = new Map<number, Change>();
  for (const change of changes) {
    const known = firstMints.get(change.token);
    if (change.kind === 'mint' && (!known || change.ts < known.ts))
      firstMints.set(change.token, change);
  }
  const mints = [...firstMints.values()].filter((mint) => inSpan(mint.ts));
  const minters = new Set(mints.map((mint) => mint.to));

  const waits: number[] = [];
  for (const mint of mints) {
    const first = changes
      .filter((c) => counted(c) && c.token === mint.token && c.ts >= mint.ts)
      .sort((a, b) => a.ts - b.ts)[0];
    if (first) waits.push(first.ts - mint.ts);
  }
  waits.sort((a, b) => a - b);
  return {
    topSales,
    sales: sales.length,
    markets,
    totals,
    minters: {
      minters: minters.size,
      holding: [...minters].filter((wallet) => holding.has(wallet)).length,
      minted: mints.length,
      keptByMinter: mints.filter((mint) => holder.get(mint.token) === mint.to).length,
    },
    firstSale: {
      sold: waits.length,
      neverSold: mints.length - waits.length,
      quartiles: waits.length ? [0.25, 0.5, 0.75].map((p) => percentile(waits, p)) : null,
      buckets: FIRST_SALE_BUCKETS.map(
        ([, low, high]) =>
          waits.filter((wait) => wait >= low && (high === null || wait < high)).length,
      ),
    },
    sold: sales,
  };
}

function expectMarket(answer: MarketFigures, want: ReturnType<typeof expectedMarket>) {
  expect(
    answer.topSales.map((group) => [group.currency.address, group.sales.map((sale) => sale.price)]),
  ).toEqual(want.topSales);
  for (const sale of answer.topSales.flatMap((group) => group.sales)) {
    const raw = want.sold.find((change) => change.tx === sale.transactionHash)!;
    expect(raw).toBeDefined();
    expect(sale).toMatchObject({
      tokenId: String(raw.token),
      price: String(raw.price),
      seller: raw.from,
      buyer: raw.to,
      timestamp: raw.ts,
      marketplace: raw.marketplace || null,
    });
    expect(sale.currencyAssumed ?? false).toBe(raw.currency === undefined);
  }

  expect(answer.sales).toBe(want.sales);
  expect(
    Object.fromEntries(answer.volume.map((v) => [v.currency.address, [v.sales, BigInt(v.volume)]])),
  ).toEqual(
    Object.fromEntries(
      [...want.totals].map(([key, volume]) => [
        key,
        [want.sold.filter((sale) => currencyKey(sale) === key).length, volume],
      ]),
    ),
  );
  expect(answer.marketplaces.map((m) => m.name ?? 'none named').sort()).toEqual(
    [...want.markets.keys()].sort(),
  );
  for (const market of answer.marketplaces) {
    const wanted = want.markets.get(market.name ?? 'none named')!;
    const count = [...wanted.values()].reduce((sum, entry) => sum + entry.sales, 0);
    expect(market.sales).toBe(count);
    expect(market.share).toBeCloseTo(count / want.sales, 9);
    expect(market.volume).toHaveLength(wanted.size);
    for (const volume of market.volume) {
      const key = volume.currency.address;
      const entry = wanted.get(key)!;
      expect([volume.sales, BigInt(volume.volume)]).toEqual([entry.sales, entry.volume]);
      expect(volume.share).toBeCloseTo(Number(entry.volume) / Number(want.totals.get(key)!), 6);
    }
  }

  const m = want.minters;
  expect(answer.minters).toEqual({
    ...m,
    holdingShare: m.minters ? m.holding / m.minters : 0,
    keptShare: m.minted ? m.keptByMinter / m.minted : 0,
  });

  const f = answer.firstSale;
  expect([f.sold, f.neverSold]).toEqual([want.firstSale.sold, want.firstSale.neverSold]);
  expect(f.buckets.map((bucket) => bucket.tokens)).toEqual(want.firstSale.buckets);
  if (want.firstSale.quartiles === null) expect(f.quartiles).toBeNull();
  else
    want.firstSale.quartiles.forEach((q, index) => expect(f.quartiles![index]).toBeCloseTo(q, 3));
}

/** A span over the history: either end or none, on a whole hour or any second. */
const spanOf = (
  changes: Change[],
  choice: { from: number | null; to: number | null; hours: boolean; exclude: boolean },
) => {
  const times = changes.map((change) => change.ts);
  const low = Math.min(...times);
  const high = Math.max(...times) + 1;
  const at = (share: number) => {
    const ts = Math.floor(low + (high - low) * share);
    return choice.hours ? Math.floor(ts / HOUR) * HOUR : ts;
  };
  const span: Span = {};
  if (choice.exclude) span.excludeWash = true;
  if (choice.from !== null) span.from = at(choice.from);
  if (choice.to !== null) span.to = at(choice.to);
  if (span.from !== undefined && span.to !== undefined && span.from >= span.to) delete span.to;
  return span;
};

describe('the market of a collection', () => {
  it('equals the figures of the raw history, over the whole of it or any span', async () => {
    const shares = fc.option(fc.double({ min: 0, max: 1, noNaN: true }), { nil: null });
    await fc.assert(
      fc.asyncProperty(
        history
          .filter((changes) => changes.length > 0)
          .chain((changes) => fc.tuple(fc.constant(changes), delivery(recordsOf(changes).length))),
        fc.array(
          fc.record({ from: shares, to: shares, hours: fc.boolean(), exclude: fc.boolean() }),
          { minLength: 1, maxLength: 3 },
        ),
        async ([changes, delivered], spans) => {
          const { pool } = db;
          await emptyIndex(pool);
          await deliver(pool, recordsOf(changes), delivered);
          const { rows } = await pool.query<{ id: number }>(
            'SELECT id FROM idx_contracts WHERE address = $1',
            [CONTRACT],
          );
          const id = rows[0]!.id;
          const whole: Span[] = [{}, { excludeWash: true }];
          for (const span of [...whole, ...spans.map((choice) => spanOf(changes, choice))]) {
            expectMarket(await market(pool, id, span), expectedMarket(changes, span));
          }
        },
      ),
      { numRuns: 40 },
    );
  }, 180_000);

  it('puts a first sale exactly on a bucket’s edge in the bucket it starts', async () => {
    const { pool } = db;
    await emptyIndex(pool);
    const DAY = 86_400;
    const start = 1_700_006_400;
    const waits = [DAY - 1, DAY, 7 * DAY, 30 * DAY, 180 * DAY, null];
    const changes: Change[] = waits.flatMap((wait, index) => {
      const token = index + 1;
      const mint: Change = {
        kind: 'mint',
        token,
        from: ZERO,
        to: WALLETS[0]!,
        ts: start,
        tx: hex64(BigInt(token * 2)),
      };
      if (wait === null) return [mint];
      const sale: Change = {
        kind: 'sale',
        token,
        from: WALLETS[0]!,
        to: WALLETS[1]!,
        ts: start + wait,
        tx: hex64(BigInt(token * 2 + 1)),
        price: 10n ** 18n,
        currency: CURRENCIES[0]!.address,
        marketplace: 'Element',
      };
      return [mint, sale];
    });
    await ingestPages(pool, [recordsOf(changes)]);
    const answer = await market(pool, 1, {});
    expect(answer.firstSale.buckets.map((bucket) => bucket.tokens)).toEqual([1, 1, 1, 1, 1]);
    expect(answer.firstSale.neverSold).toBe(1);
    expectMarket(answer, expectedMarket(changes, {}));
  });

  it('has the same mint facts when the migration fills them as when ingest keeps them', async () => {
    const { pool } = db;
    const samples = fc.sample(
      history
        .filter((changes) => changes.length > 0)
        .chain((changes) => fc.tuple(fc.constant(changes), delivery(recordsOf(changes).length))),
      { numRuns: 8, seed: 5 },
    );
    const facts = async () =>
      (
        await pool.query(
          `SELECT token_id::text, encode(minter, 'hex') AS minter, minted_at, first_sale_at,
             first_clean_sale_at FROM idx_tokens ORDER BY token_id`,
        )
      ).rows;
    for (const [changes, delivered] of samples) {
      await emptyIndex(pool);
      await deliver(pool, recordsOf(changes), delivered);
      const kept = await facts();
      expect(kept.some((row) => row.minted_at !== null)).toBe(true);
      const before = await market(pool, 1, {});
      await pool.query(`DROP INDEX idx_tokens_minted;
        ALTER TABLE idx_tokens DROP COLUMN minter, DROP COLUMN minted_at,
          DROP COLUMN first_sale_at, DROP COLUMN first_clean_sale_at`);
      await pool.query(migrations.find((migration) => migration.version === 5)!.sql);
      expect(await facts()).toEqual(kept);
      expect(await market(pool, 1, {})).toEqual(before);
      expectMarket(before, expectedMarket(changes, {}));
    }
  }, 60_000);
});
