import { describe, expect, it } from 'vitest';
import { parseBaseUnits } from '../../../src/lib/price';
import { rankings, windowSummary } from '../../../src/server/index/rankings';
import { generateDataset } from '../../../src/server/sample-service';
import { useIndexedSample, type Json } from '../../support/indexed-sample';
import {
  changesOfHands,
  countedCurrency,
  rawRecords,
  type RawChange,
} from '../../support/raw-records';
import { washBitsOf } from '../../support/wash-rules';

/**
 * The flagged sales as a list of their own (`wash=only`), the flags in exports, a view's
 * own figures (`/figures`), the ranking's flagged sales and quiet windows, each checked against the same figures computed here
 * from the service's own records and the wash rules written again.
 */
const dataset = generateDataset({ seed: 5, contracts: 6, events: 12_000 });
const busiest = [...dataset.contracts].sort((a, b) => b.eventCount - a.eventCount)[0]!;
const base = `/api/collections/${busiest.address}`;

const setUp = useIndexedSample(dataset);

/** The whole history's changes from the records, each sale with its flag bits. */
async function history(profile: 'deployed' = 'deployed') {
  const { proxy, service, get, pool } = await setUp(profile);
  await proxy.indexer!.whole(busiest.address).done;
  const changes = changesOfHands(await rawRecords(service, busiest.address));
  const bits = washBitsOf(changes.filter((change) => change.sale));
  const flagged = new Set([...bits].filter(([, wash]) => wash !== 0).map(([sale]) => sale));
  return { proxy, get, pool, changes, flagged };
}

const keyOf = (change: RawChange) => `${change.transfer.transaction_hash}|${change.token}`;
const rowKey = (row: Json) => `${row.transactionHash}|${row.tokenId}`;

/** Sales, their volume per currency they count in (ETH when they name none) and the flagged part. */
function figuresOf(changes: readonly RawChange[], flagged: ReadonlySet<RawChange>) {
  const volume = new Map<string, bigint>();
  const washVolume = new Map<string, bigint>();
  const add = (into: Map<string, bigint>, sale: Json) => {
    const currency = countedCurrency(sale.currency_address);
    into.set(currency, (into.get(currency) ?? 0n) + parseBaseUnits(String(sale.price))!);
  };
  const sales = changes.filter((change) => change.sale);
  for (const change of sales) {
    add(volume, change.sale!);
    if (flagged.has(change)) add(washVolume, change.sale!);
  }
  return {
    events: changes.length,
    sales: sales.length,
    washSales: sales.filter((change) => flagged.has(change)).length,
    volume,
    washVolume,
  };
}

const volumes = (list: Json[]) => new Map(list.map((v) => [v.currency.address, BigInt(v.volume)]));

/** Every row of a list, page after page. */
async function everyRow(
  get: (path: string) => Promise<{ status: number; body: Json }>,
  path: string,
) {
  const rows: Json[] = [];
  let cursor: string | null = null;
  do {
    const page = await get(`${path}&limit=500${cursor ? `&cursor=${cursor}` : ''}`);
    expect(page.status).toBe(200);
    rows.push(...page.body.events);
    cursor = page.body.next;
  } while (cursor);
  return rows;
}

describe('wash=only', () => {
  it('lists the flagged sales alone, each once, with their reasons; the series and export too', async () => {
    const { proxy, get, flagged } = await history();
    expect(flagged.size).toBeGreaterThan(0);
    const rows = await everyRow(get, `${base}/events?wash=only`);
    expect(new Set(rows.map(rowKey))).toEqual(new Set([...flagged].map(keyOf)));
    expect(rows).toHaveLength(flagged.size);
    for (const row of rows) expect(row.washFlags.length).toBeGreaterThan(0);

    const series = (await get(`${base}/series?interval=month&wash=only`)).body;
    const sales = series.buckets.reduce((sum: number, b: Json) => sum + b.counts.sale, 0);
    const events = series.buckets.reduce(
      (sum: number, b: Json) =>
        sum + Object.values(b.counts as Record<string, number>).reduce((a, n) => a + n, 0),
      0,
    );
    expect([sales, events]).toEqual([flagged.size, flagged.size]);

    const response = await proxy.app.request(`${base}/export?format=csv&wash=only`);
    expect(response.headers.get('content-disposition')).toMatch(/flagged-sales-only/);
    const [header, ...lines] = (await response.text()).trimEnd().split('\r\n');
    expect(lines).toHaveLength(flagged.size);
    expect(header!.split(',').at(-1)).toBe('wash_flags');
    for (const line of lines) expect(line).toMatch(/(buyer|seller|token) /);

    // The overview and the market count whole hours: they refuse it, saying what they take.
    for (const path of [`${base}?wash=only`, `${base}/market?wash=only`]) {
      const refused = await get(path);
      expect(refused.status).toBe(400);
      expect(refused.body.error.message).toBe('wash must be include or exclude.');
    }
  }, 120_000);

  it('exports each sale’s flags, empty where no rule fired', async () => {
    const { proxy, changes, flagged } = await history();
    const response = await proxy.app.request(`${base}/export?format=json&kind=sale`);
    const { rows } = (await response.json()) as { rows: Json[] };
    const byKey = new Map(changes.map((change) => [keyOf(change), change]));
    expect(rows.length).toBe(changes.filter((change) => change.sale).length);
    for (const row of rows) {
      const change = byKey.get(`${row.transaction_hash}|${row.token_id}`)!;
      expect(row.wash_flags === '', row.transaction_hash).toBe(!flagged.has(change));
    }
  }, 120_000);
});

describe('a view’s own figures', () => {
  it('counts the events, sales, volume and flagged part its filters keep, as the records say', async () => {
    const { get, changes, flagged } = await history();
    // The wallet with the most flagged sales: a view with some of each.
    const counts = new Map<string, number>();
    for (const change of flagged) counts.set(change.to, (counts.get(change.to) ?? 0) + 1);
    const wallet = [...counts].sort((a, b) => b[1] - a[1])[0]![0];
    const views: [string, RawChange[]][] = [
      ['', changes],
      [`address=${wallet}`, changes.filter((c) => c.from === wallet || c.to === wallet)],
      ['kind=sale', changes.filter((c) => c.sale)],
      ['wash=only', changes.filter((c) => flagged.has(c))],
      ['wash=exclude', changes.filter((c) => !flagged.has(c))],
      [
        `address=${wallet}&from=${changes[0]!.ts}`,
        changes.filter((c) => (c.from === wallet || c.to === wallet) && c.ts >= changes[0]!.ts),
      ],
    ];
    for (const [search, kept] of views) {
      const expected = figuresOf(kept, flagged);
      const { status, body } = await get(`${base}/figures?${search}`);
      expect(status, search).toBe(200);
      const figures = body.figures;
      expect([figures.events, figures.sales, figures.washSales], search).toEqual([
        expected.events,
        expected.sales,
        expected.washSales,
      ]);
      // Every sale of the sample has a price: a price sort lists them all.
      expect(figures.priced, search).toBe(expected.sales);
      expect(volumes(figures.volume), search).toEqual(expected.volume);
      expect(volumes(figures.washVolume), search).toEqual(expected.washVolume);
    }
    expect((await get(`${base}/figures?wash=maybe`)).body.error.message).toMatch(/^wash must be/);
  }, 120_000);
});

describe('the ranking’s flags and quiet windows', () => {
  it('counts each collection’s flagged sales, leaves them out with wash=exclude, and says where a quiet window’s newest activity is', async () => {
    const { get, pool, changes, flagged } = await history();
    const all = (await get('/api/collections?window=all&limit=500')).body;
    const without = (await get('/api/collections?window=all&wash=exclude&limit=500')).body;
    const find = (answer: Json) =>
      answer.collections.find((row: Json) => row.address === busiest.address);
    const expected = figuresOf(changes, flagged);
    expect(find(all).washSales).toBe(expected.washSales);
    expect(find(all).sales).toBe(expected.sales);
    expect(find(without).sales).toBe(expected.sales - expected.washSales);
    expect(find(without).events).toBe(expected.events - expected.washSales);
    expect([all.washExcluded, without.washExcluded]).toEqual([false, true]);
    expect(without.washSales).toBe(all.washSales);

    // Forty days after the newest event: the last 7 and 30 days are quiet, all time is not.
    const newest = Math.max(...changes.map((change) => change.ts));
    const later = newest + 40 * 86_400;
    for (const window of ['24h', '7d', '30d'] as const) {
      const rows = await rankings(pool, window, later);
      expect(rows.every((row) => row.events === 0)).toBe(true);
      const summary = windowSummary(rows, later);
      expect(summary).toMatchObject({ active: 0, nearest: 'all' });
      expect(summary.newest).toBeGreaterThanOrEqual(newest);
    }
    const tenDays = windowSummary(
      await rankings(pool, '7d', newest + 10 * 86_400),
      newest + 10 * 86_400,
    );
    expect(tenDays.active).toBe(0);
    expect(tenDays.nearest).toBe('30d');
    const rows = await rankings(pool, 'all', later);
    expect(windowSummary(rows, later).active).toBeGreaterThan(0);
  }, 120_000);
});
