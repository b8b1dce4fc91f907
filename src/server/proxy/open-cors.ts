import type { MiddlewareHandler } from 'hono';

// What a page of another origin may read of an answer beside its body.
const EXPOSED = ['ETag', 'Retry-After', 'X-Next-Cursor', 'X-List-Stopped', 'Content-Disposition'];
// What it may send: If-None-Match is not one of CORS's simple headers, so it needs a preflight.
const ALLOWED_HEADERS = 'If-None-Match';
const READ_METHODS = 'GET, HEAD';
// How long a browser keeps a preflight's answer.
const PREFLIGHT_MAX_AGE_SECONDS = 600;

/**
 * The API is open to pages of any origin, for reading only, without credentials
 * (`Access-Control-Allow-Origin: *`). Two halves around the per-client limit, so that a
 * preflight counts against it like any request (it cannot be used to ask for free), and a
 * refusal still carries the header (a page can read its `Retry-After`):
 * `openCors` outside it names the origin on every answer; `preflight` inside answers
 * OPTIONS. Other methods are still 405.
 */
export const openCors: MiddlewareHandler = async (c, next) => {
  await next();
  c.res.headers.set('access-control-allow-origin', '*');
  c.res.headers.set('access-control-expose-headers', EXPOSED.join(', '));
};

export const preflight: MiddlewareHandler = async (c, next) => {
  if (c.req.method !== 'OPTIONS') return next();
  return new Response(null, {
    status: 204,
    headers: {
      'access-control-allow-methods': READ_METHODS,
      'access-control-allow-headers': ALLOWED_HEADERS,
      'access-control-max-age': String(PREFLIGHT_MAX_AGE_SECONDS),
      allow: READ_METHODS,
    },
  });
};
