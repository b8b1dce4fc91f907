import type { Context } from 'hono';
import type pg from 'pg';
import type { z } from 'zod';
import { replicaLagNote } from '../../lib/answers';
import type { Keyset } from '../index/keyset';
import type { Indexer } from '../indexer/indexer';
import type { ReadChoice, ReadPools } from '../database/read-pools';
import { errorResponse } from '../proxy/error-response';
import { API_ROUTES, honoPath, type ApiRouteName } from './api-routes';
import { coverageOf } from './coverage';
import type { Downloads } from './download';
import { contractAddress, problemOf } from './params';

/**
 * What every route of the query API shares within a request: its parameters checked,
 * where it reads the index, its collection and coverage, its cursors. One module, so a
 * route file holds only what its resource answers.
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

/** What the query API's middleware keeps on each request. */
export type ApiEnv = { Variables: { route: string; client?: string; reading: RequestReads } };

type Params<S extends z.ZodType> = z.infer<S>;

// Rows an export reads and writes a step: each step holds the event loop, and steps of
// 500 beside two exports held every other answer past its budget (npm run loadtest:quiet).
export const EXPORT_BATCH = 100;
// How long the first ranking of a new database waits for the contracts list.
const LISTING_WAIT_MS = 10_000;

/** A route's path as mounted, from the table the API document is made of. */
export const mounted = (name: ApiRouteName) => honoPath(API_ROUTES[name]);

export const badRequest = (message: string) =>
  errorResponse({ kind: 'bad_request', status: 400, message });

/** The request's search parameters checked by `schema`, or the 400 saying what is wrong. */
export function parse<S extends z.ZodType>(c: Context, schema: S): Params<S> | Response {
  const query = Object.fromEntries(new URL(c.req.url).searchParams);
  const result = schema.safeParse(query);
  return result.success ? (result.data as Params<S>) : badRequest(problemOf(result.error));
}

/** A path parameter checked by `schema`, or the 400 saying what is wrong. */
export function pathParam<S extends z.ZodType>(
  c: Context,
  name: string,
  schema: S,
): Params<S> | Response {
  const result = schema.safeParse(c.req.param(name));
  return result.success ? (result.data as Params<S>) : badRequest(problemOf(result.error));
}

/** The query's canonical text (cursor left out): what its cursors are bound to. */
export const queryKey = (route: string, values: Record<string, unknown>) =>
  `${route}?${JSON.stringify(values, (key, value) => (key === 'cursor' ? undefined : value))}`;

// Who asks (set by the per-client limit): the service's reads a visitor causes are its.
// A request made in-process for another (a feed's) names its client in `env`.
export const clientOf = (c: Context) =>
  (c.get('client') as string | undefined) ??
  (c.env as { client?: string } | undefined)?.client ??
  'local';

/** Who an export is for, as the downloads' limits count it. */
export const downloadRequest = (c: Context) => ({ client: clientOf(c), request: c.req.raw });

/** Where this request reads the index now (see `requestReads`). */
export const readOf = (c: Context) => (c.get('reading') as RequestReads).choice();

/** The request waited for writes of its own (the service read): its reads must see them. */
export const wrote = (c: Context) => (c.get('reading') as RequestReads).wrote();

/** The helpers of the query API's routes, bound to the server's indexer, keyset and clock. */
export function createApiContext(options: QueryApiOptions) {
  const { indexer, keyset, downloads, now = Date.now, faults = () => [] } = options;

  /**
   * An answer without a collection's coverage (the ranking, a wallet) says a lagging
   * replica where it says the server's faults: both are why it may not be fresh.
   */
  const freshness = (read: { lagSeconds: number | null }) => ({
    replicaLagSeconds: read.lagSeconds,
    faults: read.lagSeconds === null ? faults() : [...faults(), replicaLagNote(read.lagSeconds)],
  });

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
  /** Reads the contracts list when due; the server's first answers wait a little for it. */
  async function contractsListed(c: Context) {
    const reading = (listing ??= indexer
      .listed()
      .catch(() => undefined)
      .finally(() => {
        listing = null;
        listedOnce = true;
      }));
    if (!listedOnce) {
      await settlesWithin(reading, LISTING_WAIT_MS);
      wrote(c);
    }
  }

  return {
    /** The primary, where an answer may write what it worked out (a kept moment). */
    primary: options.pool,
    indexer,
    keyset,
    downloads,
    now,
    freshness,
    decodeCursor,
    coverageNow,
    collection,
    collectionRequest,
    contractsListed,
  };
}

export type ApiContext = ReturnType<typeof createApiContext>;

/**
 * Where one request reads the index: chosen at its first read and kept (its pages and
 * coverage from one place); chosen again, fresh, once the request waited for writes of
 * its own, so that it sees them (read-pools.ts).
 */
export interface RequestReads {
  choice(): Promise<ReadChoice>;
  wrote(): void;
}

export function requestReads(reads: ReadPools): RequestReads {
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
