import { describe, expect, it } from 'vitest';
import { parseBaseUnits } from '../../../src/lib/price';
import { createSampleService, generateDataset } from '../../../src/server/sample-service';
import { useIndexedSample, type Json } from '../../support/indexed-sample';
import {
  changesOfHands,
  countedCurrency,
  ETH_ADDRESS,
  rawRecords,
} from '../../support/raw-records';
import { washBitsOf } from '../../support/wash-rules';

/**
 * The query API over the sample service, both profiles: every figure of a collection's
 * whole history equals the figure computed here from the service's own records, pages
 * walk every change of hands once, and bad parameters get a clear 400.
 */
const dataset = generateDataset({ seed: 5, contracts: 6, events: 12_000 });
const busiest = [...dataset.contracts].sort((a, b) => b.eventCount - a.eventCount)[0]!;
const base = `/api/collections/${busiest.address}`;
const STRK = '0x04718f5a0fc34cc1af16a1cdee98ffb20c31f5cd61d6ab07201858f4287c938d';
const USDC = '0x053c91253bc9682c04929ca02ed00b3e423f6710d2ee7e0d5ebb06f3ecf368a8';

const setUp = useIndexedSample(dataset);

describe.each(['deployed', 'documented'] as const)('the query API (%s profile)', (profile) => {
  it('answers figures of the whole history that equal the raw records’', async () => {
    const { proxy, service, get } = await setUp(profile);
    await proxy.indexer!.whole(busiest.address).done;
    const records = await rawRecords(service, busiest.address);
    const sales = records.filter((r) => String(r.event_type) === 'sale');
    // Deployed: a sale's transfer twin is its change of hands; documented: the sale is.
    const changes = profile === 'deployed' ? records.length - sales.length : records.length;
    // A sale naming no currency counts as ETH.
    const volume = new Map<string, bigint>();
    for (const sale of sales) {
      const currency = countedCurrency(sale.currency_address);
      volume.set(currency, (volume.get(currency) ?? 0n) + parseBaseUnits(String(sale.price))!);
    }
    const assumed = sales.filter((sale) => sale.currency_address === undefined);
    if (profile === 'deployed') expect(assumed.length).toBeGreaterThan(0);

    const { status, body } = await get(base);
    expect(status).toBe(200);
    expect(body.coverage.complete).toBe(true);
    expect(body.figures.events).toBe(changes);
    expect(body.figures.sales).toBe(sales.length);
    expect(
      new Map(body.figures.volume.map((v: Json) => [v.currency.address, BigInt(v.volume)])),
    ).toEqual(volume);
    expect(body.figures.assumedSales).toBe(assumed.length);

    // Newest first, page by page: every change once, in time order.
    const seen = new Set<string>();
    let last = Infinity;
    let cursor: string | null = null;
    do {
      const page: { status: number; body: Json } = await get(
        `${base}/events?limit=500${cursor ? `&cursor=${cursor}` : ''}`,
      );
      expect(page.status).toBe(200);
      for (const row of page.body.events) {
        expect(row.timestamp).toBeLessThanOrEqual(last);
        last = row.timestamp;
        seen.add(row.id);
      }
      cursor = page.body.next;
    } while (cursor);
    expect(seen.size).toBe(changes);

    // The most expensive sale in ETH (named or not) leads the price sort, and the answer
    // says how it orders.
    const eth = ETH_ADDRESS;
    const ethPrices = sales
      .filter((s) => countedCurrency(s.currency_address) === eth)
      .map((s) => parseBaseUnits(String(s.price))!)
      .sort((a, b) => (a < b ? 1 : a > b ? -1 : 0));
    const top = ethPrices[0] ?? 0n;
    const byPrice = await get(`${base}/events?sort=-price&limit=3`);
    expect(byPrice.body.order).toMatch(/never compared/);
    if (top > 0n) expect(BigInt(byPrice.body.events[0].price)).toBe(top);

    // Every priced sale once by price, page by page across currencies: each currency's
    // sales highest first, the currencies in the order the answer states.
    const byCurrency: [string, bigint][] = [];
    cursor = null;
    do {
      const page: { status: number; body: Json } = await get(
        `${base}/events?sort=-price&limit=7${cursor ? `&cursor=${cursor}` : ''}`,
      );
      expect(page.status).toBe(200);
      for (const row of page.body.events)
        byCurrency.push([countedCurrency(row.currencyAddress), BigInt(row.price)]);
      cursor = page.body.next;
    } while (cursor);
    expect(byCurrency).toHaveLength(sales.length);
    const rank = (currency: string) =>
      [eth, STRK, USDC].indexOf(currency) >= 0 ? [eth, STRK, USDC].indexOf(currency) : 3;
    byCurrency.forEach(([currency, price], index) => {
      const [before, beforePrice] = byCurrency[index - 1] ?? [currency, price];
      expect(rank(before)).toBeLessThanOrEqual(rank(currency));
      if (before === currency) expect(beforePrice >= price).toBe(true);
    });
    // ETH's group is every sale counted in ETH, named or not, highest first.
    expect(byCurrency.filter(([currency]) => currency === eth).map(([, price]) => price)).toEqual(
      ethPrices,
    );

    // `currency=none` lists the sales that named no currency, and only those.
    let unnamed = 0;
    cursor = null;
    do {
      const page: { status: number; body: Json } = await get(
        `${base}/events?currency=none&limit=500${cursor ? `&cursor=${cursor}` : ''}`,
      );
      expect(page.status).toBe(200);
      expect(page.body.events.every((row: Json) => row.currencyAddress === undefined)).toBe(true);
      unnamed += page.body.events.length;
      cursor = page.body.next;
    } while (cursor);
    expect(unnamed).toBe(assumed.length);

    // The chart's series: ETH's volume counts them (read from the hours), `none` alone
    // (read from the rows).
    const seriesVolume = async (currency: string) => {
      const { body: answer } = await get(`${base}/series?interval=month&currency=${currency}`);
      const volumes = answer.buckets.flatMap((bucket: Json) => bucket.volume);
      return [
        volumes.reduce((n: number, v: Json) => n + v.sales, 0),
        volumes.reduce((sum: bigint, v: Json) => sum + BigInt(v.volume), 0n),
      ];
    };
    expect(await seriesVolume('ETH')).toEqual([
      sales.filter((s) => countedCurrency(s.currency_address) === eth).length,
      volume.get(eth) ?? 0n,
    ]);
    expect(await seriesVolume('none')).toEqual([
      assumed.length,
      assumed.reduce((sum, s) => sum + parseBaseUnits(String(s.price))!, 0n),
    ]);

    // Sales only, whole history.
    let saleRows = 0;
    cursor = null;
    do {
      const page: { status: number; body: Json } = await get(
        `${base}/events?kind=sale&limit=500${cursor ? `&cursor=${cursor}` : ''}`,
      );
      saleRows += page.body.events.length;
      expect(page.body.events.every((row: Json) => row.kind === 'sale')).toBe(true);
      cursor = page.body.next;
    } while (cursor);
    expect(saleRows).toBe(sales.length);

    // The export streams the whole answer: a header and one line per change.
    const csv = await (await proxy.app.request(`${base}/export?format=csv`)).text();
    expect(csv.trimEnd().split('\r\n')).toHaveLength(changes + 1);

    // A sold token's page: its history oldest first, and one custody step per holder.
    const soldId = sales[0]!.token_id;
    const token = await get(`${base}/tokens/${soldId}`);
    expect(token.status).toBe(200);
    const times = token.body.events.map((row: Json) => row.timestamp);
    expect(times).toEqual([...times].sort((a, b) => a - b));
    expect(token.body.custody.length).toBe(
      token.body.events.filter((row: Json) => row.kind !== 'burn').length,
    );
    if (!token.body.burned) expect(token.body.custody.at(-1).owner).toBe(token.body.owner);

    // Holders: every token minted and not known burned is held by someone.
    const holders = await get(`${base}/holders?limit=500`);
    expect(holders.body.tokensHeld + holders.body.knownBurned).toBe(body.figures.tokens);
  }, 120_000);
});

describe('wash=exclude', () => {
  it('leaves the sales the rules flag out of figures, events, series and exports', async () => {
    const { proxy, service, get } = await setUp('deployed');
    await proxy.indexer!.whole(busiest.address).done;
    const records = await rawRecords(service, busiest.address);
    const changes = changesOfHands(records);
    const bits = washBitsOf(changes.filter((change) => change.sale));
    const flagged = [...bits].filter(([, wash]) => wash !== 0).map(([sale]) => sale);
    const flaggedVolume = new Map<string, bigint>();
    for (const { sale } of flagged) {
      const currency = countedCurrency(sale!.currency_address);
      flaggedVolume.set(
        currency,
        (flaggedVolume.get(currency) ?? 0n) + parseBaseUnits(String(sale!.price))!,
      );
    }
    expect(flagged.length).toBeGreaterThan(0);
    const volumes = (list: Json[]) =>
      new Map(list.map((v) => [v.currency.address ?? 'none', BigInt(v.volume)]));

    const all = (await get(base)).body.figures;
    const { status, body } = await get(`${base}?wash=exclude`);
    expect(status).toBe(200);
    const figures = body.figures;
    expect(all.washSales).toBe(flagged.length);
    expect(figures.washSales).toBe(flagged.length);
    expect(volumes(figures.washVolume)).toEqual(flaggedVolume);
    expect([all.washExcluded, figures.washExcluded]).toEqual([false, true]);
    expect(figures.sales).toBe(all.sales - flagged.length);
    expect(figures.events).toBe(changes.length - flagged.length);
    const less = volumes(all.volume);
    for (const [currency, amount] of flaggedVolume)
      less.set(currency, less.get(currency)! - amount);
    for (const [currency, amount] of less) if (amount === 0n) less.delete(currency);
    expect(volumes(figures.volume)).toEqual(less);
    expect(figures.marketplaces.reduce((sum: number, market: Json) => sum + market.sales, 0)).toBe(
      figures.sales,
    );
    // The market: the same sales left out, and it says so.
    const market = await get(`${base}/market?wash=exclude`);
    expect(market.status).toBe(200);
    expect(market.body.sales).toBe(figures.sales);
    expect(volumes(market.body.volume)).toEqual(less);
    expect(market.body.counted).toMatch(/flagged as possible wash trades are left out/);

    // Events: the flagged sales left out, each once; a cursor is bound to wash=exclude.
    const seen = new Set<string>();
    let cursor: string | null = null;
    do {
      const page: { status: number; body: Json } = await get(
        `${base}/events?wash=exclude&limit=500${cursor ? `&cursor=${cursor}` : ''}`,
      );
      expect(page.status).toBe(200);
      for (const row of page.body.events) {
        expect(row.washFlags).toBeUndefined();
        seen.add(row.id);
      }
      if (cursor === null && page.body.next) {
        const elsewhere = await get(`${base}/events?limit=500&cursor=${page.body.next}`);
        expect(elsewhere.status).toBe(400);
      }
      cursor = page.body.next;
    } while (cursor);
    expect(seen.size).toBe(changes.length - flagged.length);
    // Without it, a sale is said to be flagged when the rules flag it.
    const flaggedKeys = new Set(
      flagged.map((change) => `${change.sale!.transaction_hash}|${change.token}`),
    );
    const sales = await get(`${base}/events?kind=sale&limit=500`);
    for (const row of sales.body.events) {
      const key = `${row.transactionHash}|${row.tokenId}`;
      expect(row.washFlags !== undefined, key).toBe(flaggedKeys.has(key));
    }

    // Series: the bars and volumes of the sales not flagged.
    const series = (await get(`${base}/series?interval=month&wash=exclude`)).body;
    const counted = series.buckets.reduce(
      (sum: number, bucket: Json) => sum + Number(bucket.counts.sale),
      0,
    );
    expect(counted).toBe(figures.sales);

    // The export: one line per change not flagged, and a name that says so.
    const response = await proxy.app.request(`${base}/export?format=csv&wash=exclude`);
    expect(response.headers.get('content-disposition')).toMatch(/without-flagged-sales/);
    const csv = await response.text();
    expect(csv.trimEnd().split('\r\n')).toHaveLength(changes.length - flagged.length + 1);

    expect((await get(`${base}?wash=maybe`)).body.error.message).toBe(
      'wash must be include or exclude.',
    );
  }, 120_000);
});

describe('a collection the indexer is still reading', () => {
  it('a token’s own list does not count as the collection indexed back to its mint', async () => {
    const { get } = await setUp('deployed');
    const [record] = (
      await rawRecords(
        createSampleService({ apiKey: 'k', profile: 'deployed', dataset }),
        busiest.address,
      )
    ).slice(-1);
    const token = await get(`${base}/tokens/${record!.token_id}`);
    expect(token.body.events.length).toBeGreaterThan(0);
    const { body } = await get(`${base}/events?limit=1`);
    const collection = await get(base);
    // Browsing read the newest page of the contract's list at most; never back to the mint.
    expect(collection.body.coverage.indexedBack ?? Infinity).toBeGreaterThanOrEqual(
      body.events[0]?.timestamp ?? 0,
    );
    expect(collection.body.coverage.indexedBack).not.toBe(
      Math.min(...token.body.events.map((row: Json) => row.timestamp)),
    );
  }, 60_000);

  it('names a collection opened first, before any ranking was asked for', async () => {
    const { get } = await setUp('deployed');
    const { status, body } = await get(base);
    expect(status).toBe(200);
    expect(body.name).toBe(busiest.name);
  }, 60_000);

  it('newest first, the end of what is indexed is not the end: the cursor goes on to every change once', async () => {
    const { get, service } = await setUp('deployed');
    const records = await rawRecords(service, busiest.address);
    const changes = records.length - records.filter((r) => String(r.event_type) === 'sale').length;
    const seen = new Set<string>();
    let cursor: string | null = null;
    let pages = 0;
    do {
      const page: { status: number; body: Json } = await get(
        `${base}/events?limit=500${cursor ? `&cursor=${cursor}` : ''}`,
      );
      expect(page.status).toBe(200);
      for (const row of page.body.events) seen.add(row.id);
      cursor = page.body.next;
      pages += 1;
      if (cursor === null) expect(page.body.coverage.complete).toBe(true);
    } while (cursor && pages < 200);
    expect(seen.size).toBe(changes);
  }, 120_000);
});

describe('collections ranked', () => {
  it('by sales and by volume in one currency, as the service’s records rank them', async () => {
    const { proxy, service, get } = await setUp('deployed');
    const listed = await proxy.indexer!.listed();
    for (const { address } of listed) await proxy.indexer!.whole(address).done;
    const usdc = '0x053c91253bc9682c04929ca02ed00b3e423f6710d2ee7e0d5ebb06f3ecf368a8';
    const expected = await Promise.all(
      listed.map(async ({ address }) => {
        const sales = (await rawRecords(service, address)).filter((r) => r.event_type === 'sale');
        const volumeIn = (currency: string) =>
          sales
            .filter((sale) => countedCurrency(sale.currency_address) === currency)
            .reduce((sum, sale) => sum + parseBaseUnits(String(sale.price))!, 0n);
        // ETH's volume counts the sales naming no currency.
        return { address, sales: sales.length, volume: volumeIn(usdc), eth: volumeIn(ETH_ADDRESS) };
      }),
    );
    const order = (key: (row: (typeof expected)[number]) => number | bigint) =>
      [...expected]
        .sort((a, b) => {
          const [ka, kb] = [key(a), key(b)];
          return ka < kb ? 1 : ka > kb ? -1 : a.address < b.address ? -1 : 1;
        })
        .map((row) => row.address);
    const ranked = async (query: string) => {
      const addresses: string[] = [];
      let cursor: string | null = null;
      do {
        const page: { status: number; body: Json } = await get(
          `/api/collections?window=all&limit=2&${query}${cursor ? `&cursor=${cursor}` : ''}`,
        );
        expect(page.status).toBe(200);
        addresses.push(...page.body.collections.map((row: Json) => row.address));
        cursor = page.body.next;
      } while (cursor);
      return addresses;
    };
    expect(await ranked('sort=-sales')).toEqual(order((row) => row.sales));
    expect(await ranked('sort=-volume&currency=USDC')).toEqual(order((row) => row.volume));
    expect(await ranked('sort=-volume&currency=ETH')).toEqual(order((row) => row.eth));
  }, 120_000);
});

describe('the query API’s answers to bad requests', () => {
  it('says what is wrong, in our error body, with 400', async () => {
    const { get } = await setUp('deployed');
    const cases: [string, RegExp][] = [
      [`${base}/events?kind=swap`, /kind must be among/],
      [`${base}/events?limit=0`, /limit must be/],
      [`${base}/events?minPrice=5`, /price range needs a currency/],
      [`${base}/events?colour=red`, /Unknown parameter: colour/],
      [`${base}/events?cursor=abc`, /cursor is not one this server gave/],
      [`${base}/events?from=2025-02-30`, /from must be/],
      [`${base}/events?sort=size`, /sort must be one of/],
      [`/api/collections/0xZZ/events`, /Starknet address/],
      [`${base}/tokens/12abc`, /token must be a token id/],
      [`/api/collections?window=1y`, /window must be/],
      [`${base}/market?from=2025-02-30`, /from must be/],
      [`${base}/market?from=2025-03-01&to=2025-02-01`, /from must be before to/],
      [`${base}/market?kind=sale`, /Unknown parameter: kind/],
      [`${base}/market?wash=maybe`, /wash must be include or exclude/],
      // What one answer may cost: hourly over a year would be 8,760 buckets.
      [
        `${base}/series?interval=hour&from=2025-01-01&to=2026-01-01`,
        /8,760 buckets; an answer holds at most 2,000/,
      ],
      [
        `${base}/series?interval=day&from=2015-01-01&to=2026-01-01`,
        /at most 2,000: ask a coarser interval/,
      ],
    ];
    for (const [path, message] of cases) {
      const { status, body } = await get(path);
      expect(status, path).toBe(400);
      expect(body.error.kind).toBe('bad_request');
      expect(body.error.message).toMatch(message);
    }
    // Within the bound, the same interval is answered.
    expect((await get(`${base}/series?interval=hour&from=2025-01-01&to=2025-03-01`)).status).toBe(
      200,
    );
    // A cursor of one query is refused by another.
    const first = await get(`${base}/events?limit=1`);
    const other = await get(`${base}/events?limit=1&kind=sale&cursor=${first.body.next}`);
    expect(other.status).toBe(400);
  }, 60_000);
});
