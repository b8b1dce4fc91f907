import { createHash } from 'node:crypto';
import type { MiddlewareHandler } from 'hono';

/**
 * A weak `ETag` on every JSON answer (a hash of its body), and 304 without a body when the
 * request's `If-None-Match` names it: a client polling an answer that has not changed gets
 * a few bytes back. Files (an export's `Content-Disposition`) are streamed and left alone:
 * hashing one would mean holding it whole.
 */
export const jsonEtag: MiddlewareHandler = async (c, next) => {
  await next();
  const { res } = c;
  const type = res.headers.get('content-type') ?? '';
  if (
    res.status !== 200 ||
    !type.startsWith('application/json') ||
    res.headers.has('content-disposition') ||
    !res.body
  )
    return;
  const body = new Uint8Array(await res.arrayBuffer());
  const etag = `W/"${createHash('sha1').update(body).digest('base64url')}"`;
  const headers = new Headers(res.headers);
  headers.set('etag', etag);
  if (matchesEtag(c.req.header('if-none-match'), etag)) {
    for (const name of ['content-type', 'content-length']) headers.delete(name);
    c.res = new Response(null, { status: 304, headers });
    return;
  }
  c.res = new Response(body, { status: 200, headers });
};

/** Whether an `If-None-Match` names the tag (a list, `*`, or a weak form of it): weak comparison. */
export function matchesEtag(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  const bare = etag.replace(/^W\//, '');
  return header.split(',').some((tag) => {
    const named = tag.trim().replace(/^W\//, '');
    return named === bare || named === '*';
  });
}
