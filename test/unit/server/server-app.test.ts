import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createServerApp } from '../../../src/server/http/server-app';
import type { ServerOptions } from '../../../src/server/compose';
import type { RequestLog } from '../../../src/server/proxy/request-log';
import { fakeUpstream } from '../proxy/fake-upstream';
import { indexedProxy } from '../../support/indexed-proxy';
import { usePostgresDatabases } from '../../support/postgres-databases';
import { fromSocket } from '../../support/socket-bindings';

let clientDir: string;

beforeAll(() => {
  clientDir = mkdtempSync(join(tmpdir(), 'client-'));
  mkdirSync(join(clientDir, 'assets'));
  writeFileSync(
    join(clientDir, 'index.html'),
    '<!doctype html><html><head><title>dashboard</title></head><body></body></html>',
  );
  writeFileSync(join(clientDir, 'assets', 'index-abc123.js'), 'console.log(1);'.repeat(200));
  writeFileSync(join(clientDir, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
});
afterAll(() => rmSync(clientDir, { recursive: true, force: true }));

const databases = usePostgresDatabases();
const opened: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const close of opened.splice(0).reverse()) await close();
});

/**
 * The production server's app over a fake upstream, its proxy as the server makes it on a
 * new database (the record log and the index), with the default per-client limit.
 */
async function server(
  answer?: Parameters<typeof fakeUpstream>[0],
  options: Partial<ServerOptions> = {},
) {
  const { upstream, calls } = fakeUpstream(answer);
  const lines: RequestLog[] = [];
  const log = (line: RequestLog) => lines.push(line);
  const database = await databases.database();
  opened.push(database.drop);
  const { proxy, log: recordLog } = await indexedProxy({
    url: database.url,
    upstream,
    cleanups: opened,
    proxy: { log, rateLimit: { perMinute: 300, burst: 60 }, ...options },
  });
  const { trustedProxyHops } = options;
  const app = createServerApp({ proxy, clientDir, log, trustedProxyHops });
  return { app, proxy, recordLog, calls, lines };
}

const A = '0x' + '0'.repeat(60) + 'abcd';
const EVENT = {
  contract_address: A,
  event_type: 'transfer',
  event_id: '0x' + '1'.repeat(64),
  transaction_hash: '0x' + '2'.repeat(64),
  token_id: '7',
  from_address: '0x' + '0'.repeat(64),
  to_address: '0x' + '3'.repeat(64),
  timestamp: 1_700_000_000,
};

/** A service that lists `contract`, with one event, and answers every other list empty. */
const serviceOf = (contract: string) => (request: Request) => {
  const { pathname } = new URL(request.url);
  if (pathname.endsWith('/v1/contracts')) {
    return Response.json({ result: [{ contract_address: contract, name: 'A' }], cursor: null });
  }
  if (pathname.endsWith(`/v1/events/${contract}`)) {
    return Response.json({ result: [EVENT], cursor: null });
  }
  return Response.json({ result: [], cursor: null });
};

const failing = () => Response.json({ message: 'Internal server error' }, { status: 502 });

describe('production server', () => {
  it.each(['/', '/contracts', '/healthz', '/api/v1/contracts', '/assets/index-abc123.js'])(
    'sends the security headers on %s',
    async (path) => {
      const response = await (await server()).app.request(path);
      const csp = response.headers.get('content-security-policy') ?? '';
      expect(csp).toContain("default-src 'self'");
      // Contract images come from our origin: no other host sees a visitor.
      expect(csp).toMatch(/img-src 'self' data:(;|$)/);
      expect(csp).not.toContain('https:');
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
    const { app } = await server();
    const asset = await app.request('/assets/index-abc123.js');
    expect(asset.status).toBe(200);
    expect(asset.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    for (const path of ['/', '/index.html', '/contracts/0x1/tokens/2']) {
      const page = await app.request(path);
      expect(page.status).toBe(200);
      // A token's page carries its link preview's title in place of the shell's own.
      expect(await page.text()).toMatch(
        path === '/contracts/0x1/tokens/2'
          ? /^<!doctype html>.*<title>Token #2 · Token activity<\/title>/s
          : /^<!doctype html>.*<title>dashboard<\/title>/s,
      );
      expect(page.headers.get('cache-control')).toBe('no-cache');
    }
    const other = await app.request('/favicon.svg');
    expect(other.headers.get('cache-control')).toBe('public, max-age=3600');
  });

  it('answers a missing asset with 404, not the page shell', async () => {
    const response = await (await server()).app.request('/assets/gone-000.js');
    expect(response.status).toBe(404);
  });

  it('compresses assets for clients that accept it', async () => {
    const response = await (
      await server()
    ).app.request('/assets/index-abc123.js', {
      headers: { 'accept-encoding': 'gzip' },
    });
    expect(response.headers.get('content-encoding')).toBe('gzip');
  });

  it('answers /healthz without asking the upstream', async () => {
    const { app, calls } = await server();
    const response = await app.request('/healthz');
    expect(await response.json()).toEqual({ status: 'ok' });
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(calls).toHaveLength(0);
  });

  it('is ready when the upstream answers a real request', async () => {
    const { app, calls } = await server();
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
    const response = await (await server(answer)).app.request('/readyz');
    expect(response.status).toBe(503);
    const body = (await response.json()) as { status: string; reason: string };
    expect(body.status).toBe('not_ready');
    expect(body.reason).toMatch(reason);
    expect(JSON.stringify(body)).not.toContain('secret-key-123');
  });

  it('is not ready, quickly, when the upstream hangs', async () => {
    const { app } = await server(() => new Promise<Response>(() => {}), {
      readyTimeoutMs: 20,
      timeoutMs: 200,
    });
    const response = await app.request('/readyz');
    expect(response.status).toBe(503);
    expect(((await response.json()) as { reason: string }).reason).toMatch(/did not answer/);
  });

  it('stays ready while the upstream throttles: every instance would fail alike', async () => {
    const { app } = await server(() =>
      Response.json({ message: 'Too Many Requests' }, { status: 429 }),
    );
    const response = await app.request('/readyz');
    expect(response.status).toBe(200);
    expect(((await response.json()) as { note: string }).note).toMatch(/throttling/);
  });

  it('answers readiness from a recent check, failures included, so probes cost no upstream calls', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      const { app, calls } = await server(failing, { readyCacheMs: 5_000 });
      const answers = await Promise.all(Array.from({ length: 50 }, () => app.request('/readyz')));
      for (let i = 0; i < 50; i += 1) answers.push(await app.request('/readyz'));
      expect(answers.map((response) => response.status)).toEqual(Array(100).fill(503));
      expect(calls).toHaveLength(1);
      vi.advanceTimersByTime(5_000);
      expect((await app.request('/readyz')).status).toBe(503);
      expect(calls).toHaveLength(2);
    } finally {
      vi.useRealTimers();
    }
  });

  it('limits /readyz per client like the API, with the same budget', async () => {
    const { app } = await server(undefined, { rateLimit: { perMinute: 60, burst: 3 } });
    const statuses = [];
    statuses.push((await app.request('/api/meta', {}, fromSocket('1.2.3.4'))).status);
    for (let i = 0; i < 3; i += 1) {
      statuses.push((await app.request('/readyz', {}, fromSocket('1.2.3.4'))).status);
    }
    expect(statuses).toEqual([200, 200, 200, 429]);
    expect((await app.request('/readyz', {}, fromSocket('5.6.7.8'))).status).toBe(200);
  });

  it('limits page routes per client like the API, but not the files they load', async () => {
    const { app } = await server(undefined, { rateLimit: { perMinute: 60, burst: 3 } });
    const statuses = [];
    for (const path of ['/collections', '/wallets/0x1', '/contracts/0x1/tokens/2', '/about']) {
      statuses.push((await app.request(path, {}, fromSocket('1.2.3.4'))).status);
    }
    expect(statuses).toEqual([200, 200, 200, 429]);
    const refused = await app.request('/collections', {}, fromSocket('1.2.3.4'));
    expect(refused.headers.get('retry-after')).toBe('1');
    expect(await refused.json()).toMatchObject({ error: { kind: 'client_rate_limited' } });
    const asset = await app.request('/assets/index-abc123.js', {}, fromSocket('1.2.3.4'));
    expect(asset.status).toBe(200);
    expect((await app.request('/collections', {}, fromSocket('5.6.7.8'))).status).toBe(200);
  });

  it('answers a client over its budget of server time 429, and logs it, on the API as on pages', async () => {
    const { proxy, lines } = await server();
    const log = (line: RequestLog) => lines.push(line);
    // 1 ms of server time a second, 1 ms banked: any request leaves the client in debt.
    const share = {
      costPerSecondMs: 1,
      costBurstMs: 1,
      costlyAtOnce: 0,
      atOnce: 0,
      inFlightPerClient: 0,
    };
    const app = createServerApp({ proxy, clientDir, log, share });
    const env = fromSocket('1.2.3.4');
    expect((await app.request('/api/meta', {}, env)).status).toBe(200);
    const refused = await app.request('/api/meta', {}, env);
    expect(refused.status).toBe(429);
    expect(await refused.json()).toMatchObject({ error: { kind: 'client_rate_limited' } });
    // A page of another origin can read the refusal and its Retry-After.
    expect(refused.headers.get('access-control-allow-origin')).toBe('*');
    expect(refused.headers.get('access-control-expose-headers')).toContain('Retry-After');
    expect(lines.at(-1)).toMatchObject({ route: 'over-budget', status: 429 });
    expect((await app.request('/collections', {}, env)).status).toBe(429);
    expect((await app.request('/api/meta', {}, fromSocket('5.6.7.8'))).status).toBe(200);
    expect((await app.request('/healthz', {}, env)).status).toBe(200);
  });

  it('says while ready that the upstream is cooling down, and until when (capped)', async () => {
    const { app, calls } = await server(
      () =>
        Response.json(
          { message: 'Too Many Requests' },
          { status: 429, headers: { 'retry-after': '3600' } },
        ),
      {
        gate: {
          concurrency: 4,
          queueTimeoutMs: 1_000,
          ratePerSecond: 0,
          maxCoolDownMs: 30_000,
        },
      },
    );
    const before = Date.now();
    const page = await app.request('/api/v1/contracts');
    expect(page.status).toBe(429);
    expect(Number(page.headers.get('retry-after'))).toBeLessThanOrEqual(30);
    const response = await app.request('/readyz');
    expect(response.status).toBe(200);
    const body = (await response.json()) as {
      status: string;
      note: string;
      coolingDownUntil: string;
    };
    expect(body.status).toBe('ready');
    expect(body.note).toMatch(/throttling/);
    const until = Date.parse(body.coolingDownUntil);
    expect(until).toBeGreaterThan(before);
    expect(until).toBeLessThanOrEqual(Date.now() + 30_000);
    expect(calls).toHaveLength(1);
  });

  it('answers a thrown error with our JSON 500 and logs it, sending nothing of it', async () => {
    const lines: RequestLog[] = [];
    const { proxy } = await server();
    const app = createServerApp({
      proxy: { ...proxy, checkReady: () => Promise.reject(new Error('disk on fire at /srv/x')) },
      clientDir,
      log: (line) => lines.push(line),
    });
    const response = await app.request('/readyz');
    expect(response.status).toBe(500);
    const text = await response.text();
    expect(text).not.toMatch(/disk|srv/);
    expect(JSON.parse(text)).toMatchObject({ error: { kind: 'internal', status: 500 } });
    expect(lines).toEqual([
      expect.objectContaining({
        route: 'readyz',
        status: 500,
        error: expect.stringMatching(/disk on fire/),
      }),
    ]);
  });

  it.each(['POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS'])(
    'answers %s of a page or file with 405 and Allow, not the page',
    async (method) => {
      const { app } = await server();
      for (const path of [
        '/',
        '/contracts',
        '/index.html',
        '/assets/index-abc123.js',
        '/healthz',
      ]) {
        const response = await app.request(path, { method });
        expect(response.status, `${method} ${path}`).toBe(405);
        expect(response.headers.get('allow')).toBe('GET, HEAD');
        expect(await response.text()).not.toContain('<title>');
      }
    },
  );

  it('sends HSTS only over HTTPS, or when a trusted proxy says the request came so', async () => {
    const servers = {
      direct: await server(),
      proxied: await server(undefined, { trustedProxyHops: 1 }),
    };
    const hsts = async (url: string, headers: Record<string, string>, hops?: number) =>
      (await servers[hops ? 'proxied' : 'direct'].app.request(url, { headers })).headers.get(
        'strict-transport-security',
      );
    expect(await hsts('http://localhost/', {})).toBeNull();
    expect(await hsts('http://localhost/', { 'x-forwarded-proto': 'https' })).toBeNull();
    expect(await hsts('https://localhost/', {})).toMatch(/max-age=\d+/);
    expect(await hsts('http://localhost/', { 'x-forwarded-proto': 'https' }, 1)).toMatch(/max-age/);
    expect(await hsts('http://localhost/api/meta', { 'x-forwarded-proto': 'HTTPS' }, 1)).toMatch(
      /max-age/,
    );
    expect(await hsts('http://localhost/', { 'x-forwarded-proto': 'http' }, 1)).toBeNull();
    // The client's own claim, left of what the trusted proxy appended, proves nothing.
    expect(await hsts('http://localhost/', { 'x-forwarded-proto': 'https, http' }, 1)).toBeNull();
  });

  it('logs one line per request, API or not, never twice and never the key', async () => {
    const { app, lines } = await server(serviceOf(A));
    // A line is written once its answer's body is sent: each is read whole.
    const sent = async (path: string) => (await (await app.request(path)).arrayBuffer()).byteLength;
    const healthBytes = await sent('/healthz');
    await sent('/contracts');
    await sent(`/api/v1/events/${A}`);
    await sent(`/api/v1/events/${A}`);
    await sent('/api/meta');
    await sent(`/api/collections/${A}/holders`);
    expect(healthBytes).toBeGreaterThan(0);
    expect(lines).toEqual([
      expect.objectContaining({ method: 'GET', route: 'healthz', status: 200, bytes: healthBytes }),
      expect.objectContaining({ route: 'page', status: 200 }),
      // Read from the upstream into the log, then served from the log alone.
      expect.objectContaining({ route: 'contract-events', status: 200, upstreamStatus: 200 }),
      expect.objectContaining({ route: 'contract-events', status: 200 }),
      expect.objectContaining({ route: 'meta', status: 200 }),
      expect.objectContaining({ route: '/api/collections/:address/holders', status: 200 }),
    ]);
    expect(lines[3]).not.toHaveProperty('upstreamStatus');
    expect(JSON.stringify(lines)).not.toContain('secret-key-123');
  });

  it('passes the client socket to the proxy, so the rate limit sees real addresses', async () => {
    const { app } = await server(undefined, { rateLimit: { perMinute: 60, burst: 2 } });
    const env = fromSocket('1.2.3.4');
    const statuses = [];
    for (let i = 0; i < 3; i += 1) {
      statuses.push((await app.request('/api/meta', {}, env)).status);
    }
    expect(statuses).toEqual([200, 200, 429]);
  });

  it("serves the service's stable lists from the log: the contracts list, a token's events", async () => {
    const { app, calls } = await server(serviceOf(A));
    for (const path of ['/api/v1/contracts', `/api/v1/events/${A}/7`]) {
      const first = await app.request(path);
      const again = await app.request(path);
      for (const response of [first, again]) {
        expect(response.status, path).toBe(200);
        expect(response.headers.get('cache-control')).toBe('no-store');
      }
      expect(await again.json()).toEqual(await first.json());
    }
    expect(await (await app.request('/api/v1/contracts')).json()).toEqual({
      result: [{ contract_address: A, name: 'A' }],
      cursor: null,
    });
    // Read once each: the contracts list, and the token's list (the service has no event
    // for it, so it is empty).
    expect(calls.map((call) => new URL(call.url).pathname)).toEqual([
      '/base/v1/contracts',
      `/base/v1/events/${A}/7`,
    ]);
  });

  it('answers a listed collection as listed when another request read the contracts list meanwhile', async () => {
    const { app, proxy, recordLog } = await server(serviceOf(A));
    // The first look-up of the contract finds it unlisted; before it goes on, another
    // visitor's request reads the contracts list (which lists it) whole.
    const { pool } = recordLog;
    const query = pool.query.bind(pool) as (...args: unknown[]) => Promise<unknown>;
    let raced = false;
    (pool as { query: unknown }).query = async (...args: unknown[]) => {
      const result = await query(...args);
      if (!raced && String(args[0]).startsWith('SELECT listed FROM idx_contracts')) {
        raced = true;
        await proxy.indexer.listed();
      }
      return result;
    };
    const response = await app.request(`/api/v1/events/${A}`);
    expect(raced).toBe(true);
    expect(response.headers.get('x-list-stopped')).toBeNull();
    expect(await response.json()).toEqual({ result: [EVENT], cursor: null });
    const overview = await app.request(`/api/collections/${A}`);
    expect(overview.status).toBe(200);
  });

  it("serves a contract's image from our origin under its own policy, limited per client", async () => {
    const png =
      'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';
    const service = (request: Request) =>
      new URL(request.url).pathname.endsWith('/v1/contracts')
        ? Response.json({
            result: [{ contract_address: A, name: 'A', image: `data:image/png;base64,${png}` }],
            cursor: null,
          })
        : Response.json({ result: [], cursor: null });
    const { app, proxy } = await server(service, { rateLimit: { perMinute: 60, burst: 2 } });
    await proxy.indexer.listed();
    const env = fromSocket('1.2.3.4');
    const image = await app.request(`/api/images/contracts/${A}?v=1`, {}, env);
    expect(image.status).toBe(200);
    expect(image.headers.get('content-type')).toBe('image/png');
    expect(image.headers.get('content-security-policy')).toBe("default-src 'none'");
    expect(image.headers.get('x-content-type-options')).toBe('nosniff');
    expect(Buffer.from(await image.arrayBuffer()).toString('base64')).toBe(png);
    const statuses = [];
    for (let i = 0; i < 2; i += 1) {
      statuses.push((await app.request(`/api/images/contracts/${A}?v=1`, {}, env)).status);
    }
    expect(statuses).toEqual([200, 429]);
    // The app's pages keep theirs.
    expect((await app.request('/contracts')).headers.get('content-security-policy')).toContain(
      "script-src 'self'",
    );
  });
});

describe('embedded pages', () => {
  const ORIGIN = 'http://127.0.0.1:4173';
  const origins = { listen: { host: '127.0.0.1', port: 4173 } };

  it.each([`/embed/contracts/${A}/activity`, `/embed/contracts/${A}/latest?theme=dark`])(
    'lets any site frame %s, with every other header as strict',
    async (path) => {
      const response = await (await server()).app.request(path);
      expect(response.status).toBe(200);
      const csp = response.headers.get('content-security-policy') ?? '';
      expect(csp).toContain('frame-ancestors *');
      expect(csp).not.toContain("frame-ancestors 'none'");
      expect(csp).toContain("script-src 'self'");
      expect(csp).not.toContain('unsafe-inline');
      expect(response.headers.get('x-frame-options')).toBeNull();
      expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    },
  );

  it.each([`/contracts/${A}`, '/embed', `/embed/contracts/${A}`, `/api/oembed?url=x`])(
    'refuses framing %s: only the embedded pages may be framed',
    async (path) => {
      const response = await (await server()).app.request(path);
      expect(response.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
      expect(response.headers.get('x-frame-options')).toBe('DENY');
    },
  );

  it('names the oEmbed answer in a collection’s page, and answers it with the frame', async () => {
    const { app, proxy } = await server(serviceOf(A), { origins });
    await proxy.indexer.listed();
    const page = await (await app.request(`/contracts/${A}`)).text();
    const link = /<link rel="alternate" type="application\/json\+oembed" href="([^"]+)"/.exec(page);
    expect(link).not.toBeNull();
    const href = link![1]!.replace(/&amp;/g, '&');
    expect(href).toBe(
      `${ORIGIN}/api/oembed?url=${encodeURIComponent(`${ORIGIN}/contracts/${A}`)}&format=json`,
    );
    // Other pages have none.
    const holders = await (await app.request(`/contracts/${A}/holders`)).text();
    expect(holders).not.toContain('json+oembed');

    const answer = await app.request(href.slice(ORIGIN.length));
    expect(answer.status).toBe(200);
    const body = (await answer.json()) as Record<string, unknown>;
    expect(body).toMatchObject({
      version: '1.0',
      type: 'rich',
      title: 'A: activity',
      provider_name: 'Token activity',
      provider_url: `${ORIGIN}/`,
      width: 640,
      height: 360,
    });
    expect(body.html).toBe(
      `<iframe src="${ORIGIN}/embed/contracts/${A}/activity" width="640" height="360" title="A: activity · Token activity" style="border:0;max-width:100%" loading="lazy"></iframe>`,
    );

    // An embedded page's own link, within the site's bounds, keeps its theme.
    const latest = `${ORIGIN}/embed/contracts/${A}/latest?theme=dark`;
    const bounded = await app.request(
      `/api/oembed?url=${encodeURIComponent(latest)}&maxwidth=300&maxheight=2000`,
    );
    const framed = (await bounded.json()) as Record<string, unknown>;
    expect(framed).toMatchObject({ title: 'A: latest events', width: 300, height: 460 });
    expect(framed.html).toContain(`src="${latest}"`);
  });

  it('says why it cannot embed a link', async () => {
    const { app, proxy } = await server(serviceOf(A), { origins });
    await proxy.indexer.listed();
    const other = '0x' + '0'.repeat(60) + 'beef';
    for (const [query, status, said] of [
      ['', 400, /url is required/],
      ['url=contracts', 400, /url is not a whole address/],
      [
        `url=${encodeURIComponent(`https://elsewhere.example/contracts/${A}`)}`,
        400,
        /must be a page of this server, http:\/\/127\.0\.0\.1:4173/,
      ],
      [
        `url=${encodeURIComponent(`${ORIGIN}/addresses/${A}`)}`,
        400,
        /collection's page of this server/,
      ],
      [
        `url=${encodeURIComponent(`${ORIGIN}/contracts/${other}`)}`,
        404,
        /not a collection this server knows/,
      ],
      [
        `url=${encodeURIComponent(`${ORIGIN}/contracts/${A}`)}&maxwidth=wide`,
        400,
        /maxwidth must be a whole number/,
      ],
      [`url=${encodeURIComponent(`${ORIGIN}/contracts/${A}`)}&format=xml`, 400, /only json/],
    ] as const) {
      const response = await app.request(`/api/oembed?${query}`);
      expect(response.status, query).toBe(status);
      const body = (await response.json()) as { error: { message: string } };
      expect(body.error.message, query).toMatch(said);
    }
  });
});
