import { Hono, type Context } from 'hono';
import type { Coverage, HoldersCompareAnswer } from '../../lib/answers';
import { csvHeader, csvRows } from '../../lib/export';
import { DAY } from '../../lib/utc';
import { emptyCounts } from '../index/figures';
import { changesPage, compareHolders, type HoldersComparison } from '../index/holders-compare';
import { createCoalescer } from '../upstream/coalesce';
import {
  downloadRequest,
  EXPORT_BATCH,
  mounted,
  queryKey,
  readOf,
  type ApiContext,
  type ApiEnv,
} from './api-context';
import {
  compareExportColumns,
  compareExportName,
  compareExportRow,
  compareFiguresColumns,
  compareFiguresRows,
} from './holders-export';
import { HOLDERS_COUNTED, NO_HOLDERS } from './holders-api';
import { compareExportParams, compareParams } from './params';

// The first moment of a comparison that names none: as far back before the second.
const COMPARE_DEFAULT_DAYS = 30;

/** A comparison of a collection nothing of which is indexed yet. */
const emptyComparison = (): HoldersComparison => {
  const none = {
    ...NO_HOLDERS,
    activity: {
      events: 0,
      counts: emptyCounts(),
      sales: 0,
      priced: 0,
      volume: [],
      washSales: 0,
      washVolume: [],
    },
  };
  return {
    figures: { from: none, to: none },
    changed: { joined: 0, left: 0, grew: 0, shrank: 0, stayed: 0 },
    changes: [],
  };
};

/** A collection's holders at two moments compared: who joined, left, grew or shrank. */
export function holdersCompareApi(api: ApiContext) {
  const { keyset, now, collectionRequest } = api;
  const app = new Hono<ApiEnv>();

  /** The moments compared: `to` now unless named, `from` 30 days before it unless named. */
  const compareMoments = (params: { from?: number; to?: number }) => {
    const to = params.to ?? Math.floor(now() / 1000);
    return { from: params.from ?? to - COMPARE_DEFAULT_DAYS * DAY, to };
  };

  /**
   * The comparison of two moments, coalesced across identical asks; moments kept once the
   * history is whole (while older pages still come in, each would drop them).
   */
  const comparisons = createCoalescer<HoldersComparison>();
  async function comparison(c: Context, id: number, from: number, to: number, cov: Coverage) {
    const { pool } = await readOf(c);
    return (
      await comparisons.run(JSON.stringify([id, from, to, cov.records]), () =>
        compareHolders(pool, id, from, to, cov.complete ? api.primary : undefined),
      )
    ).value;
  }

  app.get(mounted('holdersCompare'), async (c) => {
    const found = await collectionRequest(c, compareParams);
    if (found.error) return found.error;
    const { params } = found;
    const { from, to } = compareMoments(params);
    const key = queryKey(`compare:${found.address}`, params);
    const cursor = api.decodeCursor(key, params.cursor);
    if (cursor.error) return cursor.error;
    const whole =
      found.id === undefined
        ? emptyComparison()
        : await comparison(c, found.id, from, to, found.coverage);
    const page = changesPage(whole.changes, {
      limit: params.limit,
      after: cursor.after,
      ...(params.change && { change: params.change }),
    });
    const answer: HoldersCompareAnswer = {
      from,
      to,
      toNow: params.to === undefined,
      figures: whole.figures,
      changed: whole.changed,
      changes: page.changes,
      next: page.next ? keyset.encode(key, page.next) : null,
      counted: `${HOLDERS_COUNTED} Each moment counts every change of hands at or before it.`,
      coverage: found.coverage,
    };
    return c.json(answer);
  });

  app.get(mounted('compareExport'), async (c) => {
    const found = await collectionRequest(c, compareExportParams);
    if (found.error) return found.error;
    const { params } = found;
    const { from, to } = compareMoments(params);
    const id = found.id;
    const figures = params.part === 'figures';
    return api.downloads.respond(downloadRequest(c), {
      name: `${compareExportName(found.address, from, to, params.part)}.csv`,
      type: 'text/csv',
      async *text() {
        yield csvHeader(figures ? compareFiguresColumns : compareExportColumns);
        const whole =
          id === undefined ? emptyComparison() : await comparison(c, id, from, to, found.coverage);
        if (figures) {
          yield csvRows(compareFiguresRows(whole.figures), compareFiguresColumns);
          return;
        }
        for (let start = 0; start < whole.changes.length; start += EXPORT_BATCH) {
          yield csvRows(
            whole.changes
              .slice(start, start + EXPORT_BATCH)
              .map((row) => compareExportRow(row, from, to)),
            compareExportColumns,
          );
        }
      },
    });
  });

  return app;
}
