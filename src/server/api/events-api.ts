import { Hono, type Context } from 'hono';
import type { z } from 'zod';
import { eventExportColumns, eventExportRow } from '../../lib/event-export';
import { csvHeader, csvRows } from '../../lib/export';
import { CURRENCIES } from '../../lib/price';
import { formatUtcDay } from '../../lib/utc';
import { eventsPage, orderStatement } from '../index/events-query';
import {
  downloadRequest,
  EXPORT_BATCH,
  mounted,
  parse,
  queryKey,
  readOf,
  wrote,
  type ApiContext,
  type ApiEnv,
} from './api-context';
import { eventsParams, exportParams, filtersOf } from './params';

// Newest-first pages read this many upstream pages deeper at most before answering.
const BROWSE_DEEPER_PAGES = 3;

/**
 * A collection's events: a page filtered and sorted over the whole history (newest-first
 * browsing reads only as deep as it is scrolled), and the whole query as a file.
 */
export function eventsApi(api: ApiContext) {
  const { indexer, keyset } = api;
  const app = new Hono<ApiEnv>();

  app.get(mounted('collectionEvents'), async (c) => {
    const params = parse(c, eventsParams);
    if (params instanceof Response) return params;
    const filters = filtersOf(params);
    const browsing =
      Object.keys(filters).length === 0 && params.sort.id === 'time' && params.sort.desc;
    const found = await api.collection(c, !browsing);
    if (found.error) return found.error;
    const key = queryKey(`events:${found.address}`, params);
    const cursor = api.decodeCursor(key, params.cursor);
    if (cursor.error) return cursor.error;
    const read = async (id: number | undefined) =>
      id === undefined
        ? { rows: [], next: null, resume: cursor.after ?? [] }
        : eventsPage(
            (await readOf(c)).pool,
            { ...filters, contractId: id, sort: params.sort, limit: params.limit },
            cursor.after,
          );
    let page = await read(found.id);
    // Browsing newest first reads deeper as far as it is scrolled, no further.
    const reads = browsing && found.listing === 'listed';
    for (let step = 0; reads && step < BROWSE_DEEPER_PAGES; step++) {
      if (page.next !== null || page.rows.length >= params.limit) break;
      const known = await api.coverageNow(c, found.address);
      if (known.coverage.complete) break;
      await indexer.deeper(found.address);
      wrote(c);
      page = await read((await api.coverageNow(c, found.address)).id);
    }
    const { coverage } = await api.coverageNow(c, found.address);
    // Newest first over a history not wholly indexed: the end of what is indexed is not the
    // end of the list, so the answer says where to go on once older events are indexed.
    const next = page.next ?? (browsing && !coverage.complete ? (page.resume ?? null) : null);
    return c.json({
      events: page.rows,
      next: next ? keyset.encode(key, next) : null,
      order: orderStatement(params.sort),
      coverage,
    });
  });

  app.get(mounted('collectionExport'), async (c) => {
    const found = await api.collectionRequest(c, exportParams);
    if (found.error) return found.error;
    return exportEvents(c, api, found);
  });

  return app;
}

type ExportFound = {
  address: string;
  id: number | undefined;
  coverage: unknown;
  params: z.infer<typeof exportParams>;
};

/** The whole query streamed as a file, a batch of rows at a time, CSV or JSON. */
async function exportEvents(c: Context, api: ApiContext, found: ExportFound) {
  const { params } = found;
  const filters = filtersOf(params);
  const name = exportName(found.address, params);
  const query =
    found.id === undefined
      ? null
      : { ...filters, contractId: found.id, sort: params.sort, limit: EXPORT_BATCH };
  const json = params.format === 'json';
  const { pool } = await readOf(c);
  return api.downloads.respond(downloadRequest(c), {
    name: `${name}.${params.format}`,
    type: json ? 'application/json' : 'text/csv',
    async *text() {
      yield json
        ? `{"collection":${JSON.stringify(found.address)},"order":${JSON.stringify(orderStatement(params.sort))},"coverage":${JSON.stringify(found.coverage)},"rows":[`
        : csvHeader(eventExportColumns);
      let after = null;
      let first = true;
      while (query) {
        const page = await eventsPage(pool, query, after);
        const rows = page.rows.map(eventExportRow);
        if (json) {
          let text = '';
          for (const row of rows) {
            text += `${first ? '' : ','}\n${JSON.stringify(row)}`;
            first = false;
          }
          yield text;
        } else if (rows.length > 0) {
          yield csvRows(rows, eventExportColumns);
        }
        if (!page.next) break;
        after = page.next;
      }
      if (json) yield '\n]}\n';
    },
  });
}

const currencyName = (currency: string) =>
  CURRENCIES.find((known) => known.address === currency)?.symbol ?? currency.slice(0, 10);

/** The export's file name: the collection, its filters and span. */
function exportName(address: string, params: z.infer<typeof exportParams>): string {
  const parts = [`collection-${address.slice(0, 10)}`];
  if (params.kind?.length) parts.push(params.kind.join('+'));
  if (params.address) parts.push(`address-${params.address.slice(0, 10)}`);
  if (params.token) parts.push(`token-${params.token.slice(0, 20)}`);
  if (params.marketplace)
    parts.push(params.marketplace.replace(/[^A-Za-z0-9]+/g, '-').slice(0, 30));
  if (params.currency) parts.push(`currency-${currencyName(params.currency)}`);
  if (params.from !== undefined) parts.push(`from-${formatUtcDay(params.from)}`);
  if (params.to !== undefined) parts.push(`to-${formatUtcDay(params.to)}`);
  if (params.wash === 'exclude') parts.push('without-flagged-sales');
  if (params.wash === 'only') parts.push('flagged-sales-only');
  return parts.join('_');
}
