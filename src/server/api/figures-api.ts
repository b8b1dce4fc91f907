import { Hono } from 'hono';
import type { Interval, MarketFigures } from '../../lib/answers';
import { DAY, HOUR, WEEK } from '../../lib/utc';
import { market, marketCounted, noMarket } from '../index/market';
import { series } from '../index/series';
import { viewFigures } from '../index/view-figures';
import { createCoalescer } from '../upstream/coalesce';
import { badRequest, mounted, readOf, type ApiContext, type ApiEnv } from './api-context';
import { filtersOf, marketParams, seriesParams, viewFiguresParams } from './params';

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
 * A collection's figures beyond the overview: a view's own (its filters), its activity
 * over time (series) and its market.
 */
export function figuresApi(api: ApiContext) {
  const { collectionRequest } = api;
  const app = new Hono<ApiEnv>();

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
