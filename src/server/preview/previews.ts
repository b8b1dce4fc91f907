import { Hono } from 'hono';
import type pg from 'pg';
import { createReadPools, type ReadPools } from '../database/read-pools';
import { errorResponse } from '../proxy/error-response';
import { matchesEtag } from '../proxy/json-etag';
import { headTags } from './page-head';
import { createPngCache } from './png-cache';
import type { PreviewLayout } from './layout';
import { readPreview, type PreviewTarget } from './read-preview';
import { recentLayouts } from './recent-layouts';
import { createCardRenderer } from './card-renderer';
import { imagePath, imageTarget, pagePath, pageTarget } from './targets';

export interface PreviewOptions {
  pool: pg.Pool;
  /** Where the index's reads go (replicas, when there are); default: `pool`. */
  reads?: ReadPools;
  /** Rendered images kept in memory at most (bytes). */
  cacheBytes?: number;
  /** How long a page waits for its tags before it is sent without them. */
  headTimeoutMs?: number;
  /** How long a target's figures, once read, are shown again without reading them anew. */
  layoutTtlMs?: number;
  /** How long a card may take to draw (waiting included) before the plain card is sent. */
  renderTimeoutMs?: number;
  /** How long a card may take to draw at all before it is given up. */
  renderGiveUpMs?: number;
}

const DEFAULT_CACHE_BYTES = 32 * 1024 * 1024;
// Every visitor's first load of those pages waits for the tags: an index slower than this
// sends the plain shell rather than hold the page back.
const DEFAULT_HEAD_TIMEOUT_MS = 300;
const DEFAULT_LAYOUT_TTL_MS = 10_000;
const DEFAULT_RENDER_TIMEOUT_MS = 500;
const DEFAULT_RENDER_GIVE_UP_MS = 10_000;
const RECENT_LAYOUTS = 1_000;
// Chats fetch a card's image once and keep it; a few minutes keeps it near the figures.
const IMAGE_CACHE_CONTROL = 'public, max-age=300';
// The plain card stands in for a moment only: the next fetch may get the real one.
const FALLBACK_CACHE_CONTROL = 'public, max-age=30';
export const PREVIEW_PREFIX = '/api/preview';

/**
 * Link previews: the tags a page's HTML carries for chat crawlers (which run no script)
 * and the PNG cards they show, both from the event index alone. Images are rendered once
 * per thing they show and kept (png-cache.ts).
 */
export function createPreviews(options: PreviewOptions) {
  const reads = options.reads ?? createReadPools(options.pool);
  const cache = createPngCache(options.cacheBytes ?? DEFAULT_CACHE_BYTES);
  const headTimeoutMs = options.headTimeoutMs ?? DEFAULT_HEAD_TIMEOUT_MS;
  const recent = recentLayouts(options.layoutTtlMs ?? DEFAULT_LAYOUT_TTL_MS, RECENT_LAYOUTS);
  const renderer = createCardRenderer(options.renderGiveUpMs ?? DEFAULT_RENDER_GIVE_UP_MS);
  const renderTimeoutMs = options.renderTimeoutMs ?? DEFAULT_RENDER_TIMEOUT_MS;
  // A card asked for again while it is drawn is drawn once, and kept once drawn, even
  // when its first visitor was sent the plain card meanwhile.
  const drawing = new Map<string, Promise<Uint8Array<ArrayBuffer> | null>>();
  const drawOnce = (key: string, etag: string, layout: PreviewLayout) => {
    let drawn = drawing.get(key);
    if (!drawn) {
      drawn = renderer.draw(layout).then((png) => {
        drawing.delete(key);
        if (png) cache.set(key, { png, etag });
        return png;
      });
      drawing.set(key, drawn);
    }
    return drawn;
  };
  let fallbacks = 0;
  const layoutOf = (target: PreviewTarget) =>
    recent(imagePath(target), async () => readPreview((await reads.choose()).pool, target));
  const app = new Hono<{ Variables: { route: string } }>();

  app.get(`${PREVIEW_PREFIX}/*`, async (c) => {
    const target = imageTarget(c.req.path.slice(PREVIEW_PREFIX.length));
    c.set('route', `${PREVIEW_PREFIX}/${target?.kind ?? 'unknown'}`);
    if (!target) {
      return errorResponse({
        kind: 'bad_request',
        status: 400,
        message:
          'A preview is /api/preview/collections/0x….png (or …/holders.png, …/market.png), /api/preview/collections/0x…/tokens/ID.png or /api/preview/wallets/0x….png, with a 0x address of up to 64 hexadecimal digits and a decimal or 0x token id.',
      });
    }
    const layout = await layoutOf(target);
    // The key is what the picture shows: new figures make a new picture, nothing else does.
    const key = JSON.stringify(layout);
    const etag = cache.etagOf(key);
    const headers = {
      'content-type': 'image/png',
      'cache-control': IMAGE_CACHE_CONTROL,
      etag,
    };
    if (matchesEtag(c.req.header('if-none-match'), etag))
      return new Response(null, { status: 304, headers });
    const cached = cache.get(key);
    if (cached) return new Response(cached.png, { headers });
    const drawn = drawOnce(key, etag, layout);
    // The card's time starts once a thread can draw it (a thread's start is not the card's).
    const fallback = await renderer.started();
    const png = await Promise.race([drawn, delay(renderTimeoutMs)]);
    if (png) return new Response(png, { headers });
    fallbacks++;
    if (!fallback) {
      return errorResponse({
        kind: 'busy',
        status: 503,
        message: 'The preview image cannot be drawn now. Try again in a moment.',
      });
    }
    return new Response(fallback, {
      headers: { 'content-type': 'image/png', 'cache-control': FALLBACK_CACHE_CONTROL },
    });
  });

  /**
   * The `<head>` tags of a page that shows a collection (its events, holders or market), a
   * token or a wallet, or null for any other page, a path whose address or id is not one,
   * or an index that does not answer in time: such a page gets the plain shell.
   */
  async function pageHead(path: string, origin: string): Promise<string | null> {
    const target = pageTarget(path);
    if (!target) return null;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<null>((resolve) => {
      timer = setTimeout(() => resolve(null), headTimeoutMs);
    });
    const layout = await Promise.race([layoutOf(target).catch(() => null), late]).finally(() =>
      clearTimeout(timer),
    );
    if (!layout) return null;
    return headTags(layout, `${origin}${pagePath(target)}`, `${origin}${imagePath(target)}`);
  }

  return {
    app,
    pageHead,
    stats: () => ({ ...cache.stats(), fallbacks }),
    /** Stops the thread that draws cards (a later card starts it again). */
    close: renderer.close,
  };
}

export type Previews = ReturnType<typeof createPreviews>;

/** Resolves null after `ms`, without keeping the process up. */
function delay(ms: number): Promise<null> {
  return new Promise((resolve) => setTimeout(() => resolve(null), ms).unref());
}
