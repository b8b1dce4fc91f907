import { z } from 'zod';
import { parseAddress } from '../../lib/address';
import { parseTokenId, tokenIdToDecimal } from '../../lib/token-id';
import { fail, ok, type Parsed } from '../../lib/result';

/**
 * The proxy's allow-list. A request is matched on its raw pathname (never decoded, so
 * `%2F` cannot smuggle a slash in) and every path segment must pass the same strict
 * validators the browser uses. Whatever passes is rebuilt from canonical values, so no
 * byte of the incoming path or query reaches the upstream unvalidated.
 */
export type ApiRoute =
  | { name: 'contracts' }
  | { name: 'contract-events'; address: string }
  | { name: 'token-events'; address: string; tokenId: string };

export interface MatchedRequest {
  route: ApiRoute;
  /** Path and query to send upstream, relative to the upstream's base URL. */
  upstreamPath: string;
  /** The list's upstream path without query: its name in the event store. */
  list: string;
  cursor?: string;
  limit?: number;
}

export type RouteMatch =
  | { kind: 'matched'; request: MatchedRequest }
  | { kind: 'not_found' }
  | { kind: 'bad_request'; message: string };

/** The largest page the proxy asks for; a larger `limit` is lowered to it. */
export const MAX_LIMIT = 5000;
const MAX_CURSOR_LENGTH = 512;
// Cursors are opaque, but every real and sample cursor is base64, base64url or UUID text.
const CURSOR_PATTERN = /^[A-Za-z0-9._~+/=-]+$/;

/** The query of a list route: what is checked here, and what the API document says of it. */
export const pageQuery = z.strictObject({
  cursor: z
    .string()
    .min(1)
    .max(MAX_CURSOR_LENGTH)
    .regex(CURSOR_PATTERN)
    .describe("The previous page's cursor, passed back unchanged.")
    .optional(),
  limit: z
    .string()
    .regex(/^(?!0+$)[0-9]+$/)
    .describe(
      `Records a page: a whole number from 1 (one above ${MAX_LIMIT} counts as ${MAX_LIMIT}).`,
    )
    .optional(),
});
const ALLOWED_QUERY = new Set(Object.keys(pageQuery.shape));

const CONTRACTS = /^\/api\/v1\/contracts$/;
const CONTRACT_EVENTS = /^\/api\/v1\/events\/([^/]+)$/;
const TOKEN_EVENTS = /^\/api\/v1\/events\/([^/]+)\/([^/]+)$/;

export function matchApiRequest(url: URL): RouteMatch {
  const route = matchPath(url.pathname);
  if (route === null) return { kind: 'not_found' };
  if (!route.ok) return { kind: 'bad_request', message: route.error };
  const query = parseQuery(url.searchParams);
  if (!query.ok) return { kind: 'bad_request', message: query.error };
  const list = listPathOf(route.value);
  return {
    kind: 'matched',
    request: {
      route: route.value,
      upstreamPath: withQuery(list, query.value),
      list,
      ...query.value,
    },
  };
}

function matchPath(pathname: string): Parsed<ApiRoute> | null {
  if (CONTRACTS.test(pathname)) return ok({ name: 'contracts' });
  const events = CONTRACT_EVENTS.exec(pathname);
  if (events) {
    const address = parseAddress(events[1] ?? '');
    return address.ok
      ? ok({ name: 'contract-events', address: address.value })
      : fail(`Invalid contract address. ${address.error}`);
  }
  const token = TOKEN_EVENTS.exec(pathname);
  if (token) {
    const address = parseAddress(token[1] ?? '');
    if (!address.ok) return fail(`Invalid contract address. ${address.error}`);
    const tokenId = parseTokenId(token[2] ?? '');
    if (!tokenId.ok) return fail(`Invalid token id. ${tokenId.error}`);
    return ok({
      name: 'token-events',
      address: address.value,
      tokenId: tokenIdToDecimal(tokenId.value),
    });
  }
  return null;
}

export interface PageQuery {
  cursor?: string;
  limit?: number;
}

function parseQuery(params: URLSearchParams): Parsed<PageQuery> {
  const query: PageQuery = {};
  const seen = new Set<string>();
  for (const [name, value] of params) {
    if (!ALLOWED_QUERY.has(name)) return fail(`Unknown query parameter "${name.slice(0, 40)}".`);
    if (seen.has(name)) return fail(`The query parameter "${name}" is given more than once.`);
    seen.add(name);
    if (name === 'cursor') {
      if (!pageQuery.shape.cursor.safeParse(value).success) {
        return fail('Invalid cursor: pass back the cursor of the previous page unchanged.');
      }
      query.cursor = value;
    } else {
      // The service sets no maximum; ours bounds one page's work, so more is asked as ours.
      if (!pageQuery.shape.limit.safeParse(value).success) {
        return fail(
          `Invalid limit: a whole number from 1 (one above ${MAX_LIMIT} counts as ${MAX_LIMIT}).`,
        );
      }
      query.limit = Math.min(Number(value), MAX_LIMIT);
    }
  }
  return ok(query);
}

function listPathOf(route: ApiRoute): string {
  return route.name === 'contracts'
    ? '/v1/contracts'
    : route.name === 'contract-events'
      ? `/v1/events/${route.address}`
      : `/v1/events/${route.address}/${route.tokenId}`;
}

/** `path?cursor=…&limit=…`, with only what is set, in that order. */
export function withQuery(path: string, query: PageQuery): string {
  const search = new URLSearchParams();
  if (query.cursor !== undefined) search.set('cursor', query.cursor);
  if (query.limit !== undefined) search.set('limit', String(query.limit));
  const text = search.toString();
  return text ? `${path}?${text}` : path;
}
