import { GZIP_THRESHOLD_BYTES, type Page } from './page-cache';

/**
 * A page as the browser (and any CDN in front) receives it. The page does not depend
 * on the visitor, since the key is the server's, so shared caches may keep it exactly
 * as long as our own cache does: `max-age` counts down the time left in ours.
 */
export function pageResponse(
  page: Page,
  options: { head: boolean; gzip: Uint8Array | undefined; cache: string },
  now = Date.now(),
): Response {
  const headers = new Headers({
    'content-type': 'application/json; charset=utf-8',
    'cache-control': cacheControl(page, now),
    'x-cache': options.cache,
  });
  if (page.body.byteLength >= GZIP_THRESHOLD_BYTES) headers.set('vary', 'accept-encoding');
  // Lets a client walking the whole list ask for the next page before parsing this one.
  if (page.nextCursor) headers.set('x-next-cursor', page.nextCursor);
  const zipped = options.gzip;
  if (zipped) headers.set('content-encoding', 'gzip');
  const body = zipped ?? page.body;
  headers.set('content-length', String(body.byteLength));
  return new Response(options.head ? null : (body as Uint8Array<ArrayBuffer>), {
    status: 200,
    headers,
  });
}

function cacheControl(page: Page, now: number): string {
  const secondsLeft = Math.ceil((page.expiresAt - now) / 1000);
  if (secondsLeft <= 0) return 'no-store';
  const shared = `public, max-age=${secondsLeft}, s-maxage=${secondsLeft}`;
  return page.immutable ? `${shared}, immutable` : shared;
}
