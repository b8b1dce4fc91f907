import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServerApp } from '../../../src/server/http/app';
import { createProxy, type ProxyOptions } from '../../../src/server/proxy/app';
import type { RequestLog } from '../../../src/server/proxy/request-log';
import { fakeUpstream } from '../proxy/fake-upstream';

let clientDir: string;

beforeAll(() => {
  clientDir = mkdtempSync(join(tmpdir(), 'client-'));
  mkdirSync(join(clientDir, 'assets'));
  writeFileSync(join(clientDir, 'index.html'), '<!doctype html><title>dashboard</title>');
  writeFileSync(join(clientDir, 'assets', 'index-abc123.js'), 'console.log(1);'.repeat(200));
  writeFileSync(join(clientDir, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
});
afterAll(() => rmSync(clientDir, { recursive: true, force: true }));

function server(answer?: Parameters<typeof fakeUpstream>[0], options: Partial<ProxyOptions> = {}) {
  const { upstream, calls } = fakeUpstream(answer);
  const lines: RequestLog[] = [];
  const log = (line: RequestLog) => lines.push(line);
  const proxy = createProxy({ upstream, log, ...options });
  return { app: createServerApp({ proxy, clientDir, log }), calls, lines };
}

describe('production server', () => {
  it.each(['/', '/contracts', '/healthz', '/api/v1/contracts', '/assets/index-abc123.js'])(
    'sends the security headers on %s',
    async (path) => {
      const response = await server().app.request(path);
      const csp = response.headers.get('content-security-policy') ?? '';
      expect(csp).toContain("default-src 'self'");
      expect(csp).toContain("img-src 'self' https: data:");
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).toContain("script-src 'self'");
      expect(csp).not.toContain('unsafe-inline');
      expect(response.headers.get('x-content-type-options')).toBe('nosniff');
      expect(response.headers.get('referrer-policy')).toBe('no-referrer');
      expect(response.headers.get('x-frame-options')).toBe('DENY');
      expect(response.headers.get('x-powered-by')).toBeNull();
    },
  );

  it('lets hashed assets be cached for a year and the page shell never without asking', async () => {
    const { app } = server();
    const asset = await app.request('/assets/index-abc123.js');
    expect(asset.status).toBe(200);
    expect(asset.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    for (const path of ['/', '/index.html', '/contracts/0x1/tokens/2']) {
      const page = await app.request(path);
      expect(page.status).toBe(200);
      expect(await page.text()).toContain('<title>dashboard</title>');
      expect(page.headers.get('cache-control')).toBe('no-cache');
    }
    const other = await app.request('/favicon.svg');
    expect(other.headers.get('cache-control')).toBe('public, max-age=3600');
  });

  it('answers a missing asset with 404, not the page shell', async () => {
    const response = await server().app.request('/assets/gone-000.js');
    expect(response.status).toBe(404);
  });

  it('compresses assets for clients that accept it', async () => {
    const response = await server().app.request('/assets/index-abc123.js', {
      headers: { 'accept-encoding': 'gzip' },
    });
    expect(response.headers.get('content-encoding')).toBe('gzip');
  });

  it('answers /healthz without asking the upstream', async () => {
    const { app, calls } = server();
    const response = await app.request('/healthz');
    expect(await response.json()).toEqual({ status: 'ok' });
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(calls).toHaveLength(0);
  });

  it('is ready when the upstream answers a real request', async () => {
    const { app, calls } = server();
    const response = await app.request('/readyz');
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: 'ready' });
    expect(new URL(calls[0]!.url).pathname + new URL(calls[0]!.url).search).toBe(
      '/base/v1/contracts?limit=1',
    );
  });

  it.each([
    ['refuses the key', () => Response.json({ message: 'Forbidden' }, { status: 403 }), /API key/],
    [
      'cannot be reached',
      () => {
        throw new TypeError('fetch failed');
      },
      /cannot be reached/,
    ],
    ['sends garbage', () => new Response('<html>'), /not valid JSON/],
  ])('is not ready when the upstream %s', async (_name, answer, reason) => {
    const response = await server(answer).app.request('/readyz');
    expect(response.status).toBe(503);
    const body = (await response.json()) as { status: string; reason: string };
    expect(body.status).toBe('not_ready');
    expect(body.reason).toMatch(reason);
    expect(JSON.stringify(body)).not.toContain('secret-key-123');
  });

  it('is not ready, quickly, when the upstream hangs', async () => {
    const { app } = server(() => new Promise<Response>(() => {}), {
      readyTimeoutMs: 20,
      timeoutMs: 200,
    });
    const response = await app.request('/readyz');
    expect(response.status).toBe(503);
    expect(((await response.json()) as { reason: string }).reason).toMatch(/did not answer/);
  });

  it('stays ready while the upstream throttles: every instance would fail alike', async () => {
    const { app } = server(() => Response.json({ message: 'Too Many Requests' }, { status: 429 }));
    const response = await app.request('/readyz');
    expect(response.status).toBe(200);
    expect(((await response.json()) as { note: string }).note).toMatch(/throttling/);
  });

  it('logs one line per request, API or not, never twice and never the key', async () => {
    const { app, lines } = server();
    await app.request('/healthz');
    await app.request('/contracts');
    await app.request('/api/v1/contracts');
    await app.request('/api/v1/contracts');
    expect(lines).toEqual([
      expect.objectContaining({ method: 'GET', route: 'healthz', status: 200 }),
      expect.objectContaining({ route: 'page', status: 200 }),
      expect.objectContaining({
        route: 'contracts',
        status: 200,
        upstreamStatus: 200,
        cache: 'miss',
      }),
      expect.objectContaining({ route: 'contracts', status: 200, cache: 'hit' }),
    ]);
    expect(JSON.stringify(lines)).not.toContain('secret-key-123');
  });

  it('passes the client socket to the proxy, so the rate limit sees real addresses', async () => {
    const { app } = server(undefined, { rateLimit: { perMinute: 60, burst: 2 } });
    const env = { incoming: { socket: { remoteAddress: '1.2.3.4' } } };
    const statuses = [];
    for (let i = 0; i < 3; i += 1) {
      statuses.push((await app.request('/api/meta', {}, env)).status);
    }
    expect(statuses).toEqual([200, 200, 429]);
  });
});
