import { Hono } from 'hono';
import { compress } from 'hono/compress';
import { apiErrorResponse, mapUpstreamError } from './api-error';
import { matchApiRequest } from './route-match';
import { fetchUpstream, type Upstream } from './upstream';

export interface RequestLog {
  method: string;
  route: string;
  status: number;
  durationMs: number;
  upstreamStatus?: number | string;
}

export interface ProxyOptions {
  upstream: Upstream;
  /** Deadline for one upstream call, headers and body together. */
  timeoutMs?: number;
  /** One structured line per request; the key is never part of it. */
  log?: (line: RequestLog) => void;
}

export const DEFAULT_TIMEOUT_MS = 15_000;

type Env = { Variables: { route: string; upstreamStatus?: number | string } };

/**
 * The API proxy: one Hono app behind `vite` dev, `vite preview` and the production
 * server. It answers `/api/meta` itself and forwards only the three read-only routes of
 * the Token Events Service, adding the server's key. It never forwards a browser header.
 */
export function createProxyApp(options: ProxyOptions) {
  const { upstream, timeoutMs = DEFAULT_TIMEOUT_MS, log } = options;
  const app = new Hono<Env>();

  app.use('/api/*', async (c, next) => {
    const started = performance.now();
    c.set('route', 'unmatched');
    await next();
    log?.({
      method: c.req.method,
      route: c.get('route'),
      status: c.res.status,
      durationMs: Math.round((performance.now() - started) * 10) / 10,
      ...(c.get('upstreamStatus') !== undefined && { upstreamStatus: c.get('upstreamStatus') }),
    });
  });
  app.use('/api/*', compress({ threshold: 1024 }));

  app.all('/api/*', async (c) => {
    if (c.req.method !== 'GET' && c.req.method !== 'HEAD') {
      const response = apiErrorResponse(
        'method_not_allowed',
        405,
        'Only GET and HEAD are allowed.',
      );
      response.headers.set('allow', 'GET, HEAD');
      return response;
    }
    const url = new URL(c.req.url);
    if (url.pathname === '/api/meta') {
      c.set('route', 'meta');
      return c.json({ source: upstream.source, description: upstream.description });
    }
    const match = matchApiRequest(url);
    if (match.kind === 'not_found') return apiErrorResponse('not_found', 404, 'No such API route.');
    if (match.kind === 'bad_request') return apiErrorResponse('bad_request', 400, match.message);
    c.set('route', match.request.route.name);

    const result = await fetchUpstream(
      upstream,
      match.request.upstreamPath,
      timeoutMs,
      c.req.raw.signal,
    );
    switch (result.kind) {
      case 'timeout':
        c.set('upstreamStatus', 'timeout');
        return apiErrorResponse(
          'timeout',
          504,
          `The Token Events Service did not answer within ${Math.round(timeoutMs / 1000)} s.`,
        );
      case 'unreachable':
        c.set('upstreamStatus', 'unreachable');
        return apiErrorResponse('unreachable', 502, 'The Token Events Service cannot be reached.');
      case 'broken':
        c.set('upstreamStatus', 'broken');
        return apiErrorResponse(
          'upstream',
          502,
          'The Token Events Service closed the connection before the page was complete.',
        );
      case 'too_large':
        c.set('upstreamStatus', 'too_large');
        return apiErrorResponse(
          'invalid_response',
          502,
          'The Token Events Service sent a page larger than its 1MB limit.',
        );
    }
    c.set('upstreamStatus', result.status);
    const text = new TextDecoder().decode(result.body);
    if (result.status < 200 || result.status > 299) {
      return mapUpstreamError(result.status, text, result.retryAfter);
    }
    if (!isEnvelope(text)) {
      return apiErrorResponse(
        'invalid_response',
        502,
        'The Token Events Service sent a page that is not valid JSON.',
      );
    }
    return new Response(c.req.method === 'HEAD' ? null : result.body, {
      status: 200,
      headers: {
        'content-type': 'application/json; charset=utf-8',
        'cache-control': 'no-store',
      },
    });
  });

  // Paths that normalise to somewhere outside /api/ (`/api/v1/events/%2e%2e/…`).
  app.notFound(() => apiErrorResponse('not_found', 404, 'No such API route.'));
  return app;
}

/** A page is a JSON object whose `result`, when present, is an array. */
function isEnvelope(text: string): boolean {
  try {
    const value: unknown = JSON.parse(text);
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
    const result = (value as { result?: unknown }).result;
    return result === undefined || result === null || Array.isArray(result);
  } catch {
    return false;
  }
}
