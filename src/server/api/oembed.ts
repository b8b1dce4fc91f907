import { Hono, type Context } from 'hono';
import type pg from 'pg';
import { canonicalAddress, shortenHex } from '../../lib/address';
import { embedFrame, type EmbeddedView, type EmbedTheme } from '../../lib/embed';
import { matchRoute } from '../../lib/routes';
import { errorResponse } from '../proxy/error-response';
import { escapeMarkup } from '../preview/escape-markup';
import { SITE_NAME } from '../preview/page-head';
import { pageOrigin, type OriginRule } from '../preview/request-origin';
import { API_ROUTES, honoPath } from './api-routes';
import { oembedParams, problemOf } from './params';
import { DAY } from '../../lib/utc';
import { collectionDetails } from '../index/contract-names';

/**
 * oEmbed (https://oembed.com): a site given the link of a collection's page, or of one of
 * its embedded pages, asks `/api/oembed?url=…` for the frame to show, and finds that
 * address in the page's own head (`oembedLinkTag`). A collection's page embeds as its
 * activity chart; the embedded pages as themselves, with the theme their link names.
 */
export interface OembedOptions {
  pool: pg.Pool;
  /** Where links point (`PUBLIC_URL`, or this server): absent, the request's own origin. */
  origins?: OriginRule | undefined;
}

// Consumers may keep an answer this long: a collection's name rarely changes.
const CACHE_AGE = DAY;

const NOT_EMBEDDABLE =
  "url must be a collection's page of this server (/contracts/0x…) or one of its embedded pages (/embed/contracts/0x…/activity or /latest).";

/** What a page of this server embeds as: the collection and which view, with its theme; or null. */
export function embedOf(
  url: URL,
): { address: string; view: EmbeddedView; theme: EmbedTheme | null } | null {
  const route = matchRoute(url.pathname);
  const segments = url.pathname.split('/').filter(Boolean);
  const address = canonicalAddress(
    (route === 'contractEvents' ? segments[1] : route ? segments[2] : '') ?? '',
  );
  if (!address) return null;
  const theme = url.searchParams.get('theme');
  const named = theme === 'light' || theme === 'dark' ? theme : null;
  switch (route) {
    case 'contractEvents':
      return { address, view: 'activity', theme: null };
    case 'embedActivity':
      return { address, view: 'activity', theme: named };
    case 'embedLatest':
      return { address, view: 'latest', theme: named };
    default:
      return null;
  }
}

/** The `<link>` in a collection page's head by which sites find its oEmbed answer; null for any other page. */
export function oembedLinkTag(path: string, origin: string): string | null {
  // Only a collection's page with a whole address: what oEmbed itself would answer.
  const page = `${origin}${path}`;
  if (matchRoute(path) !== 'contractEvents' || !embedOf(new URL(page))) return null;
  const href = `${origin}${API_ROUTES.oembed.path}?url=${encodeURIComponent(page)}&format=json`;
  return `<link rel="alternate" type="application/json+oembed" href="${escapeMarkup(href)}" title="Embed this collection's activity" />`;
}

export function createOembed({ pool, origins }: OembedOptions) {
  const app = new Hono<{ Variables: { route: string } }>();
  const originOf = (c: Context) =>
    origins ? pageOrigin(c, origins).origin : new URL(c.req.url).origin;
  const badRequest = (message: string) =>
    errorResponse({ kind: 'bad_request', status: 400, message });

  app.get(honoPath(API_ROUTES.oembed), async (c) => {
    const query = Object.fromEntries(new URL(c.req.url).searchParams);
    const params = oembedParams.safeParse(query);
    if (!params.success) return badRequest(problemOf(params.error));
    const origin = originOf(c);
    let url: URL;
    try {
      url = new URL(params.data.url);
    } catch {
      return badRequest(`url is not a whole address (https://…): ${NOT_EMBEDDABLE}`);
    }
    if (url.origin !== origin) {
      return badRequest(`url must be a page of this server, ${origin}: ${NOT_EMBEDDABLE}`);
    }
    const embed = embedOf(url);
    if (!embed) return badRequest(NOT_EMBEDDABLE);
    const known = await collectionDetails(pool, embed.address);
    if (!known) {
      return errorResponse({
        kind: 'not_found',
        status: 404,
        message: `${embed.address} is not a collection this server knows.`,
      });
    }
    const frame = embedFrame({
      origin,
      address: embed.address,
      view: embed.view,
      name: known.name || `Contract ${shortenHex(embed.address)}`,
      theme: embed.theme,
      maxWidth: params.data.maxwidth,
      maxHeight: params.data.maxheight,
    });
    c.header('cache-control', 'public, max-age=3600');
    return c.json({
      version: '1.0',
      type: 'rich',
      title: frame.title,
      provider_name: SITE_NAME,
      provider_url: `${origin}/`,
      cache_age: CACHE_AGE,
      html: frame.html,
      width: frame.width,
      height: frame.height,
    });
  });
  return app;
}
