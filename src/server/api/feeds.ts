import { createHash } from 'node:crypto';
import { Hono, type Context } from 'hono';
import type pg from 'pg';
import { canonicalAddress, shortenHex } from '../../lib/address';
import type { Coverage, EventRow, EventsAnswer, TokenAnswer } from '../../lib/answers';
import { readEventView, viewApiParams } from '../../lib/event-view';
import { marketApiSearch, parseMarketSpan, parseMarketWash } from '../../lib/market-view';
import { formatPrice, readPrice } from '../../lib/price';
import { FEED_PREFIX, feedHref, hrefs, matchRoute } from '../../lib/routes';
import { kindName } from '../../lib/token-event';
import { canonicalTokenId } from '../../lib/token-id';
import { errorResponse } from '../proxy/error-response';
import { escapeMarkup } from '../preview/escape-markup';
import { pageOrigin, type OriginRule } from '../preview/request-origin';
import { collectionRef } from '../index/contract-names';
import { atomDocument, type AtomEntry } from './atom';

/**
 * Atom feeds of the app's views: `/api/feed` before any view's path and search
 * (`/api/feed/contracts/0x…?kind=sale`) gives its newest changes of hands, with the
 * view's filters, as a feed reader polls them. A feed is a view of the query API's own
 * answers (asked in-process, so its checks, coverage and reads are the same), newest
 * first whatever the view's sort: a feed is news.
 */
export interface FeedOptions {
  /** The query API, asked in-process. */
  api: { request: (path: string, init: RequestInit, env: unknown) => Response | Promise<Response> };
  pool: pg.Pool;
  /** Where links point (`PUBLIC_URL`, or this server): absent, the request's own origin. */
  origins?: OriginRule | undefined;
  now?: () => number;
}

// Enough for a reader polling every few minutes on the busiest collection; small enough
// to stay one index page.
const FEED_ENTRIES = 50;
const ATOM_TYPE = 'application/atom+xml; charset=utf-8';
// Readers poll; what they poll may change with every head read.
const FEED_CACHE_CONTROL = 'public, max-age=60';

const NO_FEED =
  'A feed follows a collection (/contracts/0x…, its holders or market), a token (/contracts/0x…/tokens/ID) or a wallet (/addresses/0x…): put /api/feed before that page’s path.';

/** What a view's feed asks and how it names itself. */
interface FeedSource {
  /** The query API's path and search (under `/api`) whose events are the entries. */
  api: string;
  /** The view's collection, when it has one (its name titles the feed). */
  collection: string | null;
  /** What the view follows, after the collection's or wallet's name. */
  follows: string;
  /** Entries name their collection (a wallet's feed spans several). */
  named: boolean;
}

/**
 * The feed of a page's path and search, or why there is none. Only the parts of a view
 * that choose rows count; its sort and display do not.
 */
export function feedSource(path: string, search: URLSearchParams): FeedSource | string {
  // The page as the router matches it; its address and token id at their places.
  const route = matchRoute(path);
  const [, address = '', , tokenId = ''] = path.split('/').filter(Boolean);
  const canonical = canonicalAddress(address);
  if (!canonical) return NO_FEED;
  const base = `/collections/${canonical}`;
  const limit = `limit=${FEED_ENTRIES}`;
  switch (route) {
    case 'wallet': {
      const collection = canonicalAddress(search.get('collection') ?? '');
      const params = new URLSearchParams({ limit: String(FEED_ENTRIES) });
      if (collection) params.set('collection', collection);
      return {
        api: `/wallets/${canonical}/events?${params}`,
        collection,
        follows: `changes of hands of wallet ${shortenHex(canonical)}`,
        named: collection === null,
      };
    }
    case 'contractEvents': {
      const params = viewApiParams(readEventView(search).view, false);
      const filtered = [...params.keys()].length > 0;
      return {
        api: `${base}/events?${params}${filtered ? '&' : ''}${limit}`,
        collection: canonical,
        follows: filtered ? 'changes of hands in this view' : 'every change of hands',
        named: false,
      };
    }
    case 'holders':
      return {
        api: `${base}/events?${limit}`,
        collection: canonical,
        follows: 'every change of hands',
        named: false,
      };
    case 'market': {
      const wash: Record<string, string> = parseMarketWash(search) ? { wash: 'exclude' } : {};
      const params = marketApiSearch(parseMarketSpan(search), { kind: 'sale', ...wash });
      return {
        api: `${base}/events?${params}&${limit}`,
        collection: canonical,
        follows: 'sales',
        named: false,
      };
    }
    case 'tokenHistory': {
      const token = canonicalTokenId(tokenId);
      if (!token) return NO_FEED;
      return {
        api: `${base}/tokens/${token}`,
        collection: canonical,
        follows: `token ${token}`,
        named: false,
      };
    }
    default:
      return NO_FEED;
  }
}

/**
 * A page's `<link rel="alternate">` to its feed, for readers and browsers that find
 * feeds from the page; null for a page that has none. Relative: it follows the page's origin.
 */
export function feedLinkTag(path: string, search: string): string | null {
  if (typeof feedSource(path, new URLSearchParams(search)) === 'string') return null;
  const href = escapeMarkup(feedHref(path, search));
  return `<link rel="alternate" type="application/atom+xml" title="Atom feed of this view" href="${href}" />`;
}

/**
 * One change of hands as an entry. Its id is made of what names the change (the same
 * fields as the index's key: contract, transaction, token and the two addresses in either
 * order), so it stays the same when its sale record joins it later or the index is rebuilt.
 */
export function feedEntry(row: EventRow, origin: string, named: boolean): AtomEntry {
  const [a, b] = [row.from, row.to].sort();
  const digest = createHash('sha1')
    .update([row.contractAddress, row.transactionHash, row.tokenId, a, b].join('|'))
    .digest('hex');
  const price = readPrice(row);
  const title = [
    kindName(row),
    `#${row.tokenId}`,
    ...(named ? [shortenHex(row.contractAddress)] : []),
    ...(price ? [formatPrice(price)] : []),
  ].join(' · ');
  const summary = [
    `${kindName(row)} of token ${row.tokenId} of ${row.contractAddress}`,
    `from ${row.from} to ${row.to}`,
    `in transaction ${row.transactionHash}`,
    ...(price
      ? [`for ${formatPrice(price)}${row.marketplaceName ? ` on ${row.marketplaceName}` : ''}`]
      : []),
  ].join(', ');
  const flags = row.washFlags?.length
    ? ` Flagged as a possible wash trade: ${row.washFlags.join('; ')}.`
    : '';
  return {
    id: `urn:uuid:${uuidOf(digest)}`,
    title,
    link: `${origin}${hrefs.tokenHistory(row.contractAddress, row.tokenId)}`,
    updated: row.timestamp,
    summary: `${summary}.${flags}`,
  };
}

/** A name-based UUID (version 5's layout) from a SHA-1 digest. */
function uuidOf(digest: string): string {
  const variant = ((parseInt(digest.slice(16, 18), 16) & 0x3f) | 0x80).toString(16);
  return [
    digest.slice(0, 8),
    digest.slice(8, 12),
    `5${digest.slice(13, 16)}`,
    `${variant}${digest.slice(18, 20)}`,
    digest.slice(20, 32),
  ].join('-');
}

export function createFeeds(options: FeedOptions) {
  const { api, pool, origins, now = Date.now } = options;
  const app = new Hono<{ Variables: { route: string; client?: string } }>();
  const originOf = (c: Context) =>
    origins ? pageOrigin(c, origins).origin : new URL(c.req.url).origin;

  app.get(`${FEED_PREFIX}/*`, async (c) => {
    c.set('route', FEED_PREFIX);
    const url = new URL(c.req.url);
    const path = url.pathname.slice(FEED_PREFIX.length) || '/';
    const source = feedSource(path, url.searchParams);
    if (typeof source === 'string') {
      return errorResponse({ kind: 'not_found', status: 404, message: source });
    }
    // The visitor who asks is the one the query API counts (its reads of the service).
    const env = { ...(c.env as object | undefined), client: c.get('client') };
    const answer = await api.request(`/api${source.api}`, {}, env);
    if (!answer.ok) return answer;
    const body = (await answer.json()) as EventsAnswer | (TokenAnswer & { coverage?: Coverage });
    const rows = 'next' in body ? body.events : [...body.events].reverse().slice(0, FEED_ENTRIES);
    const origin = originOf(c);
    const name = source.collection ? (await collectionRef(pool, source.collection)).name : null;
    const subject = source.collection
      ? (name ?? `Contract ${shortenHex(source.collection)}`)
      : null;
    const title = subject ? `${subject}: ${source.follows}` : source.follows;
    const self = `${origin}${FEED_PREFIX}${path}${url.search}`;
    const newest = rows[0]?.timestamp ?? body.coverage?.newest ?? Math.floor(now() / 1000);
    const xml = atomDocument({
      id: self,
      title: title.charAt(0).toUpperCase() + title.slice(1),
      ...(body.coverage && { subtitle: body.coverage.statement }),
      self,
      page: `${origin}${path}${url.search}`,
      updated: newest,
      author: 'Token activity',
      entries: rows.map((row) => feedEntry(row, origin, source.named)),
    });
    return c.body(xml, 200, { 'content-type': ATOM_TYPE, 'cache-control': FEED_CACHE_CONTROL });
  });
  return app;
}
