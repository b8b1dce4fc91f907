import { Hono, type Context } from 'hono';
import type pg from 'pg';
import type { z } from 'zod';
import {
  HOLDER_SINCE_NOTE,
  replicaLagNote,
  type AlsoHoldAnswer,
  type CollectionRef,
  type HoldersCompareAnswer,
  type HoldersOverlapAnswer,
  type HoldersFigures,
  type LookupAnswer,
  type MarketFigures,
  type Interval,
  type TransactionAnswer,
  type WalletInCollectionAnswer,
} from '../../lib/answers';
import { custodyChain } from '../../lib/custody';
import { csvHeader, csvRows, toCsv } from '../../lib/export';
import {
  GROSS_NOTE,
  TAX_YEAR_COUNTED,
  taxYearExportColumns,
  taxYearExportName,
  taxYearExportRow,
  taxYearSpan,
  utcYear,
  type TaxYearAnswer,
} from '../../lib/tax-year';
import { CURRENCIES } from '../../lib/price';
import { eventExportColumns, eventExportRow } from '../../lib/event-export';
import { eventsPage, orderStatement } from '../index/events-query';
import { emptyCounts, overview } from '../index/figures';
import { changesPage, compareHolders, type HoldersComparison } from '../index/holders-compare';
import {
  alsoHold,
  everyOverlapHolder,
  overlapFigures,
  overlapPage,
} from '../index/holders-overlap';
import { everyHolder, holders } from '../index/holders';
import { market, marketCounted, noMarket } from '../index/market';
import type { Keyset } from '../index/keyset';
import { matchingRanking, rankedBy, rankings, windowSummary } from '../index/rankings';
import { series } from '../index/series';
import { viewFigures } from '../index/view-figures';
import { NO_TOKEN, tokenHistory } from '../index/token';
import { lookupValue as lookupIndex } from '../index/lookup';
import { transactionEvents } from '../index/transaction';
import { walletCollections } from '../index/wallet';
import { emptyWalletFigures, walletInCollection } from '../index/wallet-collection';
import { walletTaxYear } from '../index/wallet-tax-year';
import type { Indexer } from '../indexer/indexer';
import { createReadPools, type ReadChoice, type ReadPools } from '../database/read-pools';
import { errorResponse } from '../proxy/error-response';
import { createCoalescer } from '../upstream/coalesce';
import { API_ROUTES, honoPath, type ApiRouteName } from './api-routes';
import type { Downloads } from './download';
import { coverageOf } from './coverage';
import {
  alsoHoldExportColumns,
  alsoHoldExportRow,
  compareExportColumns,
  compareExportName,
  compareExportRow,
  compareFiguresColumns,
  compareFiguresRows,
  holderExportColumns,
  holderExportName,
  holderExportRow,
  overlapExportColumns,
  overlapExportRow,
} from './holders-export';
import {
  alsoHoldParams,
  compareExportParams,
  compareParams,
  contractAddress,
  emptyParams,
  eventsParams,
  exportParams,
  filtersOf,
  holdersExportParams,
  holdersParams,
  lookupParams,
  lookupValue,
  marketParams,
  overlapParams,
  overviewParams,
  problemOf,
  rankingParams,
  seriesParams,
  taxYearParams,
  tokenParam,
  transactionHash,
  viewFiguresParams,
  walletAddress,
  walletCollectionParams,
  walletEventsParams,
} from './params';
import { DAY, HOUR, WEEK, formatUtcDay } from '../../lib/utc';

/**
 * The query API: whole-history answers from the event index, as JSON, paged by keyset
 * cursors bound to their query. Each answer about a collection says how complete and
 * fresh it is (coverage.ts); a question that needs the whole history starts the indexer
 * on it, and newest-first browsing reads deeper only as far as it is scrolled.
 */
export interface QueryApiOptions {
  /** The primary's pool. */
  pool: pg.Pool;
  /** Where index reads go (replicas, when there are); default: the primary. */
  reads?: ReadPools;
  indexer: Indexer;
  keyset: Keyset;
  /** The server's faults in words, said in every answer. */
  faults?: () => string[];
  now?: () => number;
  /** Exports' files, streamed within their limits. */
  downloads: Downloads;
}

// Rows an export reads and writes a step: each step holds the event loop, and steps of
// 500 beside two exports held every other answer past its budget (npm run loadtest:quiet).
const EXPORT_BATCH = 100;
// A series answer's buckets at most: hourly over 83 days, daily over five years.
const MAX_SERIES_BUCKETS = 2_000;
// The shortest each interval can be (a month of 28 days), so a span's count is never short.
const INTERVAL_SECONDS: Record<Interval, number> = {
  hour: HOUR,
  day: DAY,
  week: WEEK,
  month: 28 * DAY,
};
const NO_HOLDERS: HoldersFigures = {
  totalHolders: 0,
  tokensHeld: 0,
  knownBurned: 0,
  distribution: ['1', '2–5', '6–10', '11–25', '26+'].map((range) => ({ range, holders: 0 })),
  top10Share: 0,
};
// The first moment of a comparison that names none: as far back before the second.
const COMPARE_DEFAULT_DAYS = 30;
// What every holders answer counts, in words.
const HOLDERS_COUNTED =
  'Tokens held, not copies: the records carry no ERC1155 balances. A token burned without the index seeing it (contract lists carry no burns) still counts for its last holder.';
const ALSO_HOLD_COUNTED = `Holders now, of collections the index holds (one not indexed yet counts what is indexed). ${HOLDERS_COUNTED}`;
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
// Newest-first pages read this many upstream pages deeper at most before answering.
const BROWSE_DEEPER_PAGES = 3;
// How long the first ranking of a new database waits for the contracts list.
const LISTING_WAIT_MS = 10_000;

type Params<S extends z.ZodType> = z.infer<S>;

/** A route's path as mounted, from the table the API document is made of. */
const mounted = (name: ApiRouteName) => honoPath(API_ROUTES[name]);

export function createQueryApi(options: QueryApiOptions) {
  const { indexer, keyset, downloads, now = Date.now, faults = () => [] } = options;
  const reads = options.reads ?? createReadPools(options.pool);
  const app = new Hono<{
    Variables: { route: string; client?: string; reading: RequestReads };
  }>();
  // Who asks (set by the per-client limit): the service's reads a visitor causes are its.
  // A request made in-process for another (a feed's) names its client in `env`.
  const clientOf = (c: Context) =>
    (c.get('client') as string | undefined) ??
    (c.env as { client?: string } | undefined)?.client ??
    'local';
  const downloadRequest = (c: Context) => ({ client: clientOf(c), request: c.req.raw });
  // The request log names the route as matched (`/api/collections/:address/events`). This
  // runs for every request under /api/: one whose handler named it (`meta`, `openapi`), or
  // the proxy's catch-all (`/api/*`) answered, keeps the name it gave (`contracts`,
  // `unmatched`).
  app.use('*', async (c, next) => {
    const named = c.get('route');
    c.set('reading', requestReads(reads));
    await next();
    if (c.get('route') === named && !c.req.routePath.endsWith('*')) {
      c.set('route', c.req.routePath);
    }
  });
  /** Where this request reads the index now (see `requestReads`). */
  const readOf = (c: Context) => (c.get('reading') as RequestReads).choice();
  /**
   * An answer without a collection's coverage (the ranking, a wallet) says a lagging
   * replica where it says the server's faults: both are why it may not be fresh.
   */
  const freshness = (read: { lagSeconds: number | null }) => ({
    replicaLagSeconds: read.lagSeconds,
    faults: read.lagSeconds === null ? faults() : [...faults(), replicaLagNote(read.lagSeconds)],
  });
  /** The request waited for writes of its own (the service read): its reads must see them. */
  const wrote = (c: Context) => (c.get('reading') as RequestReads).wrote();

  const badRequest = (message: string) =>
    errorResponse({ kind: 'bad_request', status: 400, message });

  function parse<S extends z.ZodType>(c: Context, schema: S): Params<S> | Response {
    const query = Object.fromEntries(new URL(c.req.url).searchParams);
    const result = schema.safeParse(query);
    return result.success ? (result.data as Params<S>) : badRequest(problemOf(result.error));
  }

  /** The query's canonical text (cursor left out): what its cursors are bound to. */
  const queryKey = (route: string, values: Record<string, unknown>) =>
    `${route}?${JSON.stringify(values, (key, value) => (key === 'cursor' ? undefined : value))}`;

  function decodeCursor(key: string, cursor: string | undefined) {
    if (cursor === undefined) return { after: null };
    const after = keyset.decode(key, cursor);
    return after
      ? { after }
      : { error: badRequest('cursor is not one this server gave for this query.') };
  }

  /** A collection's coverage as an answer says it: its walk's progress, the server's faults. */
  const coverageNow = async (c: Context, address: string) => {
    const read = await readOf(c);
    return coverageOf(read.pool, address, indexer.progress(address), faults(), read.lagSeconds);
  };

  /**
   * The collection of a route, with its coverage; its head is read when due. Only a
   * contract the service lists is read from it: any other address is a 404 that costs no
   * walk (unless the index holds something of it, which is then answered as stored).
   */
  async function collection(c: Context, whole: boolean, param = 'address') {
    const address = contractAddress.safeParse(c.req.param(param));
    if (!address.success) return { error: badRequest(problemOf(address.error)) };
    // Asked of what is stored first: reading the contracts list is a write to wait for.
    let listing = await indexer.storedListing(address.data);
    if (listing !== 'listed') {
      listing = await indexer.listingOf(address.data);
      wrote(c);
    }
    if (listing === 'listed') {
      void indexer.head(address.data, clientOf(c));
      if (whole) indexer.whole(address.data);
    }
    const { id, coverage: known } = await coverageNow(c, address.data);
    if (listing === 'not-listed' && id === undefined) {
      return {
        error: errorResponse({
          kind: 'not_found',
          status: 404,
          message: `${address.data} is not a collection the Token Events Service lists.`,
        }),
      };
    }
    return { address: address.data, id, coverage: known, listing };
  }

  /** A collection route's checked parameters and its collection, read as a whole. */
  async function collectionRequest<S extends z.ZodType>(c: Context, schema: S, param = 'address') {
    const params = parse(c, schema);
    if (params instanceof Response) return { error: params };
    const found = await collection(c, true, param);
    return found.error ? found : { ...found, params, error: undefined };
  }

  // The contracts list, read when due (the store says when) by one request for everyone:
  // without it a server with no background work would rank only what visitors opened.
  let listing: Promise<unknown> | null = null;
  let listedOnce = false;
  const readListing = () =>
    (listing ??= indexer
      .listed()
      .catch(() => undefined)
      .finally(() => {
        listing = null;
        listedOnce = true;
      }));

  app.get(mounted('collections'), async (c) => {
    const params = parse(c, rankingParams);
    if (params instanceof Response) return params;
    const key = queryKey('collections', params);
    const cursor = decodeCursor(key, params.cursor);
    if (cursor.error) return cursor.error;
    const reading = readListing();
    // The server's first answers wait a little for the list (a new database has none).
    if (!listedOnce) {
      await settlesWithin(reading, LISTING_WAIT_MS);
      wrote(c);
    }
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
      ...freshness(read),
    });
  });

  app.get(mounted('collection'), async (c) => {
    const found = await collectionRequest(c, overviewParams);
    if (found.error) return found.error;
    // Its name, symbol and image come with the contracts list: a server that has not read
    // it yet waits for it a little once, as the ranking does.
    const reading = readListing();
    if (!listedOnce) {
      await settlesWithin(reading, LISTING_WAIT_MS);
      wrote(c);
    }
    const { pool } = await readOf(c);
    const excludeWash = found.params.wash === 'exclude';
    const figures = found.id === undefined ? null : await overview(pool, found.id, { excludeWash });
    const { rows } = await pool.query(
      'SELECT name, symbol, image, contract_type AS type FROM idx_contracts WHERE address = $1',
      [found.address],
    );
    return c.json({
      address: found.address,
      ...(rows[0] ?? {}),
      figures,
      coverage: found.coverage,
    });
  });

  app.get(mounted('collectionEvents'), async (c) => {
    const params = parse(c, eventsParams);
    if (params instanceof Response) return params;
    const filters = filtersOf(params);
    const browsing =
      Object.keys(filters).length === 0 && params.sort.id === 'time' && params.sort.desc;
    const found = await collection(c, !browsing);
    if (found.error) return found.error;
    const key = queryKey(`events:${found.address}`, params);
    const cursor = decodeCursor(key, params.cursor);
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
      const known = await coverageNow(c, found.address);
      if (known.coverage.complete) break;
      await indexer.deeper(found.address);
      wrote(c);
      page = await read((await coverageNow(c, found.address)).id);
    }
    const { coverage } = await coverageNow(c, found.address);
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

  app.get(mounted('collectionHolders'), async (c) => {
    const found = await collectionRequest(c, holdersParams);
    if (found.error) return found.error;
    const { params } = found;
    const key = queryKey(`holders:${found.address}`, params);
    const cursor = decodeCursor(key, params.cursor);
    if (cursor.error) return cursor.error;
    // A collection nothing of which is indexed yet has no holders so far: the same shape.
    const answer =
      found.id === undefined
        ? { ...NO_HOLDERS, holders: [], next: null }
        : await holders((await readOf(c)).pool, found.id, {
            ...(params.asOf !== undefined && { asOf: params.asOf }),
            ...(params.owner !== undefined && { owner: params.owner }),
            limit: params.limit,
            after: cursor.after,
            // While older pages still come in, each would drop what was kept.
            keepIn: found.coverage.complete ? options.pool : undefined,
          });
    return c.json({
      ...answer,
      asOf: params.asOf ?? null,
      next: answer.next ? keyset.encode(key, answer.next) : null,
      counted: `${HOLDERS_COUNTED} ${HOLDER_SINCE_NOTE}`,
      coverage: found.coverage,
    });
  });

  // Every holder in one file, as the holders answer orders them, streamed a batch at a time.
  app.get(mounted('holdersExport'), async (c) => {
    const found = await collectionRequest(c, holdersExportParams);
    if (found.error) return found.error;
    const { params } = found;
    // A snapshot of now says on each line when it was taken.
    const asOf = params.asOf ?? Math.floor(now() / 1000);
    const id = found.id;
    const { pool } = await readOf(c);
    return downloads.respond(downloadRequest(c), {
      name: `${holderExportName(found.address, params.asOf)}.csv`,
      type: 'text/csv',
      async *text() {
        yield csvHeader(holderExportColumns);
        if (id === undefined) return;
        for await (const batch of everyHolder(pool, id, params.asOf, EXPORT_BATCH)) {
          yield csvRows(
            batch.map((holder) => holderExportRow(holder, asOf)),
            holderExportColumns,
          );
        }
      },
    });
  });

  /** A collection's name and symbol as answers name it. */
  async function collectionRef(pool: pg.Pool, address: string): Promise<CollectionRef> {
    const { rows } = await pool.query<{ name: string | null; symbol: string | null }>(
      'SELECT name, symbol FROM idx_contracts WHERE address = $1',
      [address],
    );
    return { address, name: rows[0]?.name ?? null, symbol: rows[0]?.symbol ?? null };
  }

  app.get(mounted('holdersAlsoHold'), async (c) => {
    const found = await collectionRequest(c, alsoHoldParams);
    if (found.error) return found.error;
    const answer: AlsoHoldAnswer = {
      ...(found.id === undefined
        ? { holders: 0, collections: [] }
        : await alsoHold((await readOf(c)).pool, found.id, found.params.limit)),
      counted: ALSO_HOLD_COUNTED,
      coverage: found.coverage,
    };
    return c.json(answer);
  });

  app.get(mounted('alsoHoldExport'), async (c) => {
    const found = await collectionRequest(c, emptyParams);
    if (found.error) return found.error;
    const id = found.id;
    const asOf = Math.floor(now() / 1000);
    const { pool } = await readOf(c);
    return downloads.respond(downloadRequest(c), {
      name: `holders-${found.address.slice(0, 10)}_also-hold.csv`,
      type: 'text/csv',
      async *text() {
        yield csvHeader(alsoHoldExportColumns);
        if (id === undefined) return;
        const { collections } = await alsoHold(pool, id, Number.MAX_SAFE_INTEGER);
        yield csvRows(
          collections.map((held) => alsoHoldExportRow(held, asOf)),
          alsoHoldExportColumns,
        );
      },
    });
  });

  /** Both collections of an overlap route; either may be one the service does not list. */
  async function overlapRequest<S extends z.ZodType>(c: Context, schema: S) {
    const found = await collectionRequest(c, schema);
    if (found.error) return found;
    const other = await collection(c, true, 'other');
    if (other.error) return other;
    return { ...found, other };
  }

  app.get(mounted('holdersOverlap'), async (c) => {
    const found = await overlapRequest(c, overlapParams);
    if (found.error) return found.error;
    const { params, other } = found;
    const key = queryKey(`overlap:${found.address}:${other.address}`, params);
    const cursor = decodeCursor(key, params.cursor);
    if (cursor.error) return cursor.error;
    const { pool } = await readOf(c);
    const ids = found.id !== undefined && other.id !== undefined ? [found.id, other.id] : null;
    const [figures, page, ref] = await Promise.all([
      ids ? overlapFigures(pool, ids[0]!, ids[1]!) : null,
      ids
        ? overlapPage(pool, ids[0]!, ids[1]!, { limit: params.limit, after: cursor.after })
        : { rows: [], next: null },
      collectionRef(pool, other.address),
    ]);
    const answer: HoldersOverlapAnswer = {
      other: ref,
      ...(figures ?? { holders: 0, otherHolders: 0, inCommon: 0, share: 0, otherShare: 0 }),
      rows: page.rows,
      next: page.next ? keyset.encode(key, page.next) : null,
      counted: ALSO_HOLD_COUNTED,
      coverage: found.coverage,
      otherCoverage: other.coverage,
    };
    return c.json(answer);
  });

  app.get(mounted('overlapExport'), async (c) => {
    const found = await overlapRequest(c, emptyParams);
    if (found.error) return found.error;
    const [id, otherId] = [found.id, found.other.id];
    const asOf = Math.floor(now() / 1000);
    const { pool } = await readOf(c);
    return downloads.respond(downloadRequest(c), {
      name: `holders-${found.address.slice(0, 10)}_and-${found.other.address.slice(0, 10)}.csv`,
      type: 'text/csv',
      async *text() {
        yield csvHeader(overlapExportColumns);
        if (id === undefined || otherId === undefined) return;
        for await (const batch of everyOverlapHolder(pool, id, otherId, EXPORT_BATCH)) {
          yield csvRows(
            batch.map((holder) => overlapExportRow(holder, asOf)),
            overlapExportColumns,
          );
        }
      },
    });
  });

  /** The moments compared: `to` now unless named, `from` 30 days before it unless named. */
  const compareMoments = (params: { from?: number; to?: number }) => {
    const to = params.to ?? Math.floor(now() / 1000);
    return { from: params.from ?? to - COMPARE_DEFAULT_DAYS * DAY, to };
  };

  /** The comparison of two moments, coalesced across identical asks. */
  const comparisons = createCoalescer<HoldersComparison>();
  async function comparison(
    c: Context,
    id: number,
    from: number,
    to: number,
    { records, complete }: { records: number; complete: boolean },
  ) {
    const { pool } = await readOf(c);
    // While older pages still come in, each would drop the moments kept.
    const keepIn = complete ? options.pool : undefined;
    return (
      await comparisons.run(JSON.stringify([id, from, to, records]), () =>
        compareHolders(pool, id, from, to, keepIn),
      )
    ).value;
  }

  app.get(mounted('holdersCompare'), async (c) => {
    const found = await collectionRequest(c, compareParams);
    if (found.error) return found.error;
    const { params } = found;
    const { from, to } = compareMoments(params);
    const key = queryKey(`compare:${found.address}`, params);
    const cursor = decodeCursor(key, params.cursor);
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
    return downloads.respond(downloadRequest(c), {
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

  app.get(mounted('token'), async (c) => {
    const params = parse(c, emptyParams);
    if (params instanceof Response) return params;
    const token = tokenParam.safeParse(c.req.param('tokenId'));
    if (!token.success) return badRequest(problemOf(token.error));
    const found = await collection(c, false);
    if (found.error) return found.error;
    const failure =
      found.listing === 'listed'
        ? await indexer.token(found.address, token.data, clientOf(c))
        : 'the service cannot be asked now';
    if (found.listing === 'listed') wrote(c);
    const { id, coverage } = await coverageNow(c, found.address);
    const { pool } = await readOf(c);
    const history = id === undefined ? null : await tokenHistory(pool, id, token.data);
    return c.json({
      address: found.address,
      tokenId: token.data,
      ...(history ?? NO_TOKEN),
      custody: custodyChain(history?.events ?? []),
      tokenList: failure
        ? {
            read: false,
            failure: `The token's own list could not be read (${failure.replace(/\.$/, '')}); this history comes from stored data.`,
          }
        : { read: true },
      coverage,
    });
  });

  app.get(mounted('collectionExport'), async (c) => {
    const found = await collectionRequest(c, exportParams);
    if (found.error) return found.error;
    const { params } = found;
    const filters = filtersOf(params);
    const name = exportName(found.address, params);
    const query =
      found.id === undefined
        ? null
        : { ...filters, contractId: found.id, sort: params.sort, limit: EXPORT_BATCH };
    const json = params.format === 'json';
    const { pool } = await readOf(c);
    return downloads.respond(downloadRequest(c), {
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
  });

  app.get(mounted('wallet'), async (c) => {
    const params = parse(c, emptyParams);
    if (params instanceof Response) return params;
    const wallet = walletAddress.safeParse(c.req.param('address'));
    if (!wallet.success) return badRequest(problemOf(wallet.error));
    const read = await readOf(c);
    return c.json({
      address: wallet.data,
      collections: await walletCollections(read.pool, wallet.data),
      covers: 'Collections the index holds; a collection not indexed yet is not counted.',
      ...freshness(read),
    });
  });

  app.get(mounted('walletEvents'), async (c) => {
    const params = parse(c, walletEventsParams);
    if (params instanceof Response) return params;
    const wallet = walletAddress.safeParse(c.req.param('address'));
    if (!wallet.success) return badRequest(problemOf(wallet.error));
    const key = queryKey(`wallet:${wallet.data}`, params);
    const cursor = decodeCursor(key, params.cursor);
    if (cursor.error) return cursor.error;
    const { pool } = await readOf(c);
    let contractId: number | undefined;
    if (params.collection) {
      const { id } = await coverageOf(pool, params.collection, undefined);
      if (id === undefined) return c.json({ events: [], next: null });
      contractId = id;
    }
    const page = await eventsPage(
      pool,
      {
        address: wallet.data,
        ...(contractId !== undefined && { contractId }),
        ...(params.kind?.length && { kinds: params.kind }),
        sort: { id: 'time', desc: true },
        limit: params.limit,
      },
      cursor.after,
    );
    return c.json({ events: page.rows, next: page.next ? keyset.encode(key, page.next) : null });
  });

  // One wallet inside one collection: a whole-history question of the collection.
  app.get(mounted('walletCollection'), async (c) => {
    const wallet = walletAddress.safeParse(c.req.param('address'));
    if (!wallet.success) return badRequest(problemOf(wallet.error));
    const found = await collectionRequest(c, walletCollectionParams, 'contract');
    if (found.error) return found.error;
    const { pool } = await readOf(c);
    const [{ rows }, figures] = await Promise.all([
      pool.query<{ name: string | null; symbol: string | null }>(
        'SELECT name, symbol FROM idx_contracts WHERE address = $1',
        [found.address],
      ),
      found.id === undefined
        ? null
        : walletInCollection(pool, wallet.data, found.id, {
            ...(found.params.interval && { interval: found.params.interval }),
            now: Math.floor(now() / 1000),
          }),
    ]);
    const answer: WalletInCollectionAnswer = {
      ...(figures ?? emptyWalletFigures(wallet.data)),
      collection: {
        address: found.address,
        name: rows[0]?.name ?? null,
        symbol: rows[0]?.symbol ?? null,
      },
      coverage: found.coverage,
    };
    return c.json(answer);
  });

  // The tokens a wallet sold in a year, as JSON and as a file: what it answers is stored.
  async function taxYearRequest(c: Context) {
    const params = parse(c, taxYearParams);
    if (params instanceof Response) return params;
    const wallet = walletAddress.safeParse(c.req.param('address'));
    if (!wallet.success) return badRequest(problemOf(wallet.error));
    const year = params.year ?? utcYear(now());
    const { pool } = await readOf(c);
    return { address: wallet.data, year, ...(await walletTaxYear(pool, wallet.data, year)) };
  }

  app.get(mounted('walletTaxYear'), async (c) => {
    const found = await taxYearRequest(c);
    if (found instanceof Response) return found;
    const answer: TaxYearAnswer = {
      ...found,
      ...taxYearSpan(found.year),
      gross: GROSS_NOTE,
      counted: TAX_YEAR_COUNTED,
      covers: 'Collections the index holds; a collection not indexed yet is not counted.',
    };
    return c.json(answer);
  });

  app.get(mounted('walletTaxYearExport'), async (c) => {
    const found = await taxYearRequest(c);
    if (found instanceof Response) return found;
    return downloads.respond(downloadRequest(c), {
      name: `${taxYearExportName(found.address, found.year)}.csv`,
      type: 'text/csv',
      async *text() {
        yield toCsv(found.sales.map(taxYearExportRow), taxYearExportColumns);
      },
    });
  });

  // What a whole value is, from the index and the contracts list as stored: never a walk.
  app.get(mounted('lookup'), async (c) => {
    const params = parse(c, lookupParams);
    if (params instanceof Response) return params;
    const raw = c.req.param('value') ?? '';
    const value = lookupValue.safeParse(raw);
    if (!value.success) return badRequest(problemOf(value.error));
    const { pool } = await readOf(c);
    const { id } = params.collection
      ? await coverageOf(pool, params.collection, undefined)
      : { id: undefined };
    const inView =
      params.collection && id !== undefined ? { id, address: params.collection } : undefined;
    const answer: LookupAnswer = {
      value: raw,
      matches: await lookupIndex(pool, value.data, inView),
    };
    return c.json(answer);
  });

  app.get(mounted('transaction'), async (c) => {
    const params = parse(c, emptyParams);
    if (params instanceof Response) return params;
    const hash = transactionHash.safeParse(c.req.param('hash'));
    if (!hash.success) return badRequest(problemOf(hash.error));
    const { pool } = await readOf(c);
    const answer: TransactionAnswer = {
      hash: hash.data,
      ...(await transactionEvents(pool, hash.data)),
    };
    return c.json(answer);
  });

  return app;
}

const currencyName = (currency: string) =>
  CURRENCIES.find((known) => known.address === currency)?.symbol ?? currency.slice(0, 10);

/** The export's file name: the collection, its filters and span. */
function exportName(address: string, params: Params<typeof exportParams>): string {
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

/**
 * Where one request reads the index: chosen at its first read and kept (its pages and
 * coverage from one place); chosen again, fresh, once the request waited for writes of
 * its own, so that it sees them (read-pools.ts).
 */
interface RequestReads {
  choice(): Promise<ReadChoice>;
  wrote(): void;
}

function requestReads(reads: ReadPools): RequestReads {
  let choice: Promise<ReadChoice> | undefined;
  let fresh = false;
  return {
    choice: () => (choice ??= reads.choose({ fresh })),
    wrote() {
      fresh = true;
      choice = undefined;
    },
  };
}

/** Waits for the promise, `ms` at most (it goes on either way). */
async function settlesWithin(promise: Promise<unknown>, ms: number): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  await Promise.race([promise, new Promise((resolve) => (timer = setTimeout(resolve, ms)))]);
  clearTimeout(timer);
}
