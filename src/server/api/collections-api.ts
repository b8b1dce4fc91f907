import { Hono } from 'hono';
import type { Interval, MarketFigures } from '../../lib/answers';
import { DAY, HOUR, WEEK } from '../../lib/utc';
import { collectionDetails } from '../index/contract-names';
import { overview } from '../index/figures';
import { market, marketCounted, noMarket } from '../index/market';
import { matchingRanking, rankedBy, rankings, windowSummary } from '../index/rankings';
import { series } from '../index/series';
import { viewFigures } from '../index/view-figures';
import { createCoalescer } from '../upstream/coalesce';
import {
  badRequest,
  mounted,
  parse,
  queryKey,
  readOf,
  type ApiContext,
  type ApiEnv,
} from './api-context';
import {
  filtersOf,
  marketParams,
  overviewParams,
  rankingParams,
  seriesParams,
  viewFiguresParams,
} from './params';

// A series answer's buckets at most: hourly over 83 days, daily over five years.
const MAX_SERIES_BUCKETS = 2_000;
// The shortest each interval can be (a month of 28 days), so a span's count is never short.
const INTERVAL_SECONDS: Record<Interval, number> = {
  hour: HOUR,
  day: DAY,
  week: WEEK,
  month: 28 * DAY,
};

/**
 * The collections: their ranking, and one collection's overview, figures of a view,
 * activity series and market. Its events are in events-api.ts, its holders in
 * holders-api.ts.
 */
export function collectionsApi(api: ApiContext) {
  const { keyset, now, collectionRequest } = api;
  const app = new Hono<ApiEnv>();

  app.get(mounted('collections'), async (c) => {
    const params = parse(c, rankingParams);
    if (params instanceof Response) return params;
    const key = queryKey('collections', params);
    const cursor = api.decodeCursor(key, params.cursor);
    if (cursor.error) return cursor.error;
    await api.contractsListed(c);
    const read = await readOf(c);
    const nowSeconds = Math.floor(now() / 1000);
    const excludeWash = params.wash === 'exclude';
    const all = await rankings(read.pool, params.window, nowSeconds, { excludeWash });
    const matching = matchingRanking(all, params.q);
    const sorted = rankedBy(matching, params.sort, params.currency);
    let start = 0;
    if (cursor.after) {
      const address = cursor.after[0];
      start = sorted.findIndex((row) => row.address === address) + 1;
    }
    const page = sorted.slice(start, start + params.limit);
    const more = start + params.limit < sorted.length;
    return c.json({
      window: params.window,
      sort: `${params.sort.desc ? '-' : ''}${params.sort.id}`,
      collections: page,
      next: more ? keyset.encode(key, [page.at(-1)!.address]) : null,
      ...windowSummary(matching, nowSeconds),
      washExcluded: excludeWash,
      ...api.freshness(read),
    });
  });

  app.get(mounted('collection'), async (c) => {
    const found = await collectionRequest(c, overviewParams);
    if (found.error) return found.error;
    // Its name, symbol and image come with the contracts list: a server that has not read
    // it yet waits for it a little once, as the ranking does.
    await api.contractsListed(c);
    const { pool } = await readOf(c);
    const excludeWash = found.params.wash === 'exclude';
    const figures = found.id === undefined ? null : await overview(pool, found.id, { excludeWash });
    const details = await collectionDetails(pool, found.address);
    return c.json({
      address: found.address,
      ...details,
      figures,
      coverage: found.coverage,
    });
  });

  app.get(mounted('collectionSeries'), async (c) => {
    const found = await collectionRequest(c, seriesParams);
    if (found.error) return found.error;
    const { params, coverage } = found;
    // What one answer may cost: a span of buckets at most (the app asks about a hundred).
    const from = params.from ?? coverage.indexedBack;
    const to = params.to ?? coverage.newest;
    const buckets =
      from !== null && to !== null ? (to - from) / INTERVAL_SECONDS[params.interval] : 0;
    if (buckets > MAX_SERIES_BUCKETS) {
      return badRequest(
        `interval=${params.interval} over this span would be ${Math.ceil(buckets).toLocaleString('en-US')} buckets; an answer holds at most ${MAX_SERIES_BUCKETS.toLocaleString('en-US')}: ask a coarser interval, or a shorter span with from and to.`,
      );
    }
    const rows =
      found.id === undefined
        ? []
        : await series((await readOf(c)).pool, found.id, params.interval, filtersOf(params));
    return c.json({ interval: params.interval, buckets: rows, coverage });
  });

  // A view's own figures: asked only beside a filter or a price sort (the overview has the
  // whole history's).
  app.get(mounted('collectionFigures'), async (c) => {
    const found = await collectionRequest(c, viewFiguresParams);
    if (found.error) return found.error;
    const filters = filtersOf(found.params);
    const figures =
      found.id === undefined ? null : await viewFigures((await readOf(c)).pool, found.id, filters);
    return c.json({ figures, coverage: found.coverage });
  });

  // The market reads every token minted: identical requests over the same indexed rows
  // (the coverage's records and newest time) share one run.
  const markets = createCoalescer<MarketFigures>();
  app.get(mounted('collectionMarket'), async (c) => {
    const found = await collectionRequest(c, marketParams);
    if (found.error) return found.error;
    const { from, to, excludeWash = false } = filtersOf(found.params);
    const span = { from, to, excludeWash };
    const { id, coverage } = found;
    const { pool } = await readOf(c);
    const figures =
      id === undefined
        ? noMarket()
        : (
            await markets.run(
              JSON.stringify([id, from, to, excludeWash, coverage.records, coverage.newest]),
              () => market(pool, id, span),
            )
          ).value;
    return c.json({
      ...figures,
      from: from ?? null,
      to: to ?? null,
      counted: marketCounted(excludeWash),
      coverage: found.coverage,
    });
  });

  return app;
}
