import { describe, expect, it, vi } from 'vitest';
import type { ServerOptions, RequestLog } from '../../../src/server/compose';
import { fakeUpstream } from './fake-upstream';
import { useProxies } from './proxy-harness';

/**
 * The service's failures as the proxy answers them, through /api/v1 (served from the
 * record log, which reads the service for what it lacks): one JSON error shape in words
 * of ours, the right status and kind, nothing of a failed answer kept.
 */
const { proxyOn } = useProxies();

/** The proxy on a database over `upstream`. */
async function appOver(upstream: ServerOptions['upstream'], options: Partial<ServerOptions> = {}) {
  return (await proxyOn(upstream, { proxy: options })).app;
}

async function errorOf(response: Response) {
  return ((await response.json()) as { error: { kind: string; retryAfterSeconds?: number } }).error;
}

describe('upstream failures become one JSON error shape', () => {
  it.each([
    [403, { message: 'Forbidden' }, 403, 'bad_key'],
    [429, { message: 'Too Many Requests' }, 429, 'rate_limited'],
    [429, { message: 'Limit Exceeded' }, 429, 'rate_limited'],
    [502, { message: 'Internal server error' }, 502, 'upstream'],
    [500, 'oops', 502, 'upstream'],
    [400, { message: 'bad limit' }, 400, 'bad_request'],
  ] as const)('upstream %i %j → %i %s', async (status, body, expected, kind) => {
    const { upstream } = fakeUpstream(() =>
      typeof body === 'string' ? new Response(body, { status }) : Response.json(body, { status }),
    );
    const response = await (await appOver(upstream)).request('/api/v1/contracts');
    expect(response.status).toBe(expected);
    expect((await errorOf(response)).kind).toBe(kind);
  });

  it.each([400, 401, 403, 404, 410, 429, 500, 502, 503])(
    'says upstream %i in words of its own, never the upstream’s',
    async (status) => {
      const { upstream } = fakeUpstream(() =>
        Response.json({ message: 'UPSTREAM-TEXT <b>limit</b>' }, { status }),
      );
      const { proxy } = await proxyOn(upstream);
      const response = await proxy.app.request('/api/v1/contracts');
      expect(response.status).toBeGreaterThanOrEqual(400);
      const text = await response.text();
      expect(text).not.toContain('UPSTREAM-TEXT');
      expect(
        (JSON.parse(text) as { error: { message: string } }).error.message.length,
      ).toBeGreaterThan(0);
      const readiness = await proxy.checkReady();
      expect(JSON.stringify(readiness)).not.toContain('UPSTREAM-TEXT');
    },
  );

  it('keeps Retry-After', async () => {
    const { upstream } = fakeUpstream(() =>
      Response.json(
        { message: 'Too Many Requests' },
        { status: 429, headers: { 'retry-after': '7' } },
      ),
    );
    const response = await (await appOver(upstream)).request('/api/v1/contracts');
    expect(response.headers.get('retry-after')).toBe('7');
    expect((await errorOf(response)).retryAfterSeconds).toBe(7);
  });

  it('gives 504 when the upstream is too slow', async () => {
    // Never answers and ignores the abort signal: the proxy must not rely on it.
    const { upstream } = fakeUpstream(() => new Promise<Response>(() => {}));
    const response = await (
      await appOver(upstream, { timeoutMs: 50 })
    ).request('/api/v1/contracts');
    expect(response.status).toBe(504);
    expect((await errorOf(response)).kind).toBe('timeout');
  });

  it('gives 504 when the body stalls after the headers', async () => {
    const { upstream } = fakeUpstream(
      () =>
        new Response(
          new ReadableStream({ start: (c) => c.enqueue(new TextEncoder().encode('{"res')) }),
        ),
    );
    const response = await (
      await appOver(upstream, { timeoutMs: 50 })
    ).request('/api/v1/contracts');
    expect(response.status).toBe(504);
  });

  it('gives 502 unreachable when the connection fails', async () => {
    const { upstream } = fakeUpstream(() => {
      throw new TypeError('fetch failed');
    });
    const response = await (await appOver(upstream)).request('/api/v1/contracts');
    expect(response.status).toBe(502);
    expect((await errorOf(response)).kind).toBe('unreachable');
  });

  it('gives 502 when the body breaks off', async () => {
    const { upstream } = fakeUpstream(
      () =>
        new Response(
          new ReadableStream({
            start(controller) {
              controller.enqueue(new TextEncoder().encode('{"result":['));
              controller.error(new Error('socket hang up'));
            },
          }),
        ),
    );
    const response = await (await appOver(upstream)).request('/api/v1/contracts');
    expect(response.status).toBe(502);
    expect((await errorOf(response)).kind).toBe('upstream');
  });

  it.each([
    ['malformed JSON', '{"result": [1, 2,'],
    ['truncated JSON', '{"result":[{"a":"b"}],"cursor":"ab'],
    ['not an envelope', '[1,2,3]'],
    ['result not a list', '{"result": "x"}'],
  ])('gives 502 invalid_response for %s', async (_name, body) => {
    const { upstream } = fakeUpstream(() => new Response(body, { status: 200 }));
    const response = await (await appOver(upstream)).request('/api/v1/contracts');
    expect(response.status).toBe(502);
    expect((await errorOf(response)).kind).toBe('invalid_response');
  });

  it.each([
    [
      'invalid UTF-8',
      new Uint8Array([
        ...new TextEncoder().encode('{"result":["'),
        0xff,
        0xfe,
        ...new TextEncoder().encode('"]}'),
      ]),
    ],
    [
      'a lone surrogate half',
      new Uint8Array([
        ...new TextEncoder().encode('{"result":["'),
        0xed,
        0xa0,
        0x80,
        ...new TextEncoder().encode('"]}'),
      ]),
    ],
    [
      'nesting two million deep',
      new TextEncoder().encode(`{"result":${'['.repeat(2_000_000)}${']'.repeat(2_000_000)}}`),
    ],
    [
      'nesting just past what a page needs',
      new TextEncoder().encode(`{"result":[${'{"a":'.repeat(40)}1${'}'.repeat(40)}]}`),
    ],
  ])('gives 502 invalid_response for %s, and keeps nothing', async (_name, bytes) => {
    let calls = 0;
    const { upstream } = fakeUpstream(() => {
      calls += 1;
      return new Response(bytes as Uint8Array<ArrayBuffer>, { status: 200 });
    });
    const app = await appOver(upstream);
    for (let i = 0; i < 2; i += 1) {
      const response = await app.request('/api/v1/contracts');
      expect(response.status).toBe(502);
      expect((await errorOf(response)).kind).toBe('invalid_response');
    }
    expect(calls).toBe(2);
  });

  it('passes pages with any text in their strings, nested as deep as records are', async () => {
    const page = {
      result: [{ name: '[[[{{{"\\', nested: { a: { b: [1, [2, [3]]] } }, emoji: '🦄 é ß' }],
      cursor: null,
    };
    const { upstream } = fakeUpstream(() => Response.json(page));
    const response = await (await appOver(upstream)).request('/api/v1/contracts');
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual(page);
  });

  it('answers a thrown error with our JSON 500, its stack in the log line, nothing of it sent', async () => {
    const lines: RequestLog[] = [];
    const big = { result: Array.from({ length: 200 }, (_, i) => ({ contract_address: `0x${i}` })) };
    const { upstream } = fakeUpstream(() => Response.json(big));
    // A bug of ours while answering: the metrics' counter throws.
    const app = await appOver(upstream, {
      log: (line) => lines.push(line),
      monitoring: {
        upstreamRequest: async () => {},
        pageServed: () => {
          throw new Error('metrics exploded at /secret/path');
        },
        recovered: () => {},
        verified: () => {},
      },
    });
    const response = await app.request('/api/v1/contracts');
    expect(response.status).toBe(500);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    const text = await response.text();
    expect(text).not.toMatch(/metrics|secret/);
    expect(JSON.parse(text)).toEqual({
      error: { kind: 'internal', status: 500, message: expect.stringMatching(/server failed/) },
    });
    expect(lines).toEqual([
      expect.objectContaining({
        route: 'contracts',
        status: 500,
        error: expect.stringMatching(/metrics exploded/),
      }),
    ]);
  });

  it.each([
    [403, 'Forbidden', 'key', /refused the server’s API key/],
    [429, 'Limit Exceeded', 'quota', /monthly quota is spent/],
  ] as const)(
    'takes upstream %i %s for a fault of the whole server, over once a page is read',
    async (status, message, kind, words) => {
      let failing = true;
      const { upstream } = fakeUpstream(() =>
        failing
          ? Response.json({ message }, { status })
          : Response.json({ result: [], cursor: null }),
      );
      const { proxy } = await proxyOn(upstream);
      expect((await proxy.app.request('/api/v1/contracts')).status).toBe(status);
      expect(proxy.faults.list()).toEqual([
        expect.objectContaining({ kind, message: expect.stringMatching(words) }),
      ]);
      failing = false;
      // A throttled gate lets the next request through only after its cool-down.
      if (status === 429)
        await vi.waitFor(() => expect(proxy.stats().gate.coolingDownMs).toBe(0), {
          timeout: 5_000,
        });
      expect((await proxy.app.request('/api/v1/contracts')).status).toBe(200);
      expect(proxy.faults.list()).toEqual([]);
    },
  );

  it('serves what it has stored while the service fails', async () => {
    const page = { result: [{ contract_address: `0x${'c'.repeat(64)}` }], cursor: null };
    let failing = false;
    const { upstream, calls } = fakeUpstream(() =>
      failing
        ? Response.json({ message: 'Internal server error' }, { status: 500 })
        : Response.json(page),
    );
    // The head is due at every request: each asks the service again.
    const { app } = await proxyOn(upstream, { settings: { headIntervalMs: 0 } });
    expect(await (await app.request('/api/v1/contracts')).json()).toEqual(page);
    failing = true;
    const response = await app.request('/api/v1/contracts');
    expect(calls).toHaveLength(2);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual(page);
  });

  it('logs one line per request with the upstream status and never the key', async () => {
    const lines: RequestLog[] = [];
    const { upstream } = fakeUpstream();
    const app = await appOver(upstream, { log: (line) => lines.push(line) });
    // A line is written once its answer's body is sent.
    await (await app.request('/api/v1/contracts')).text();
    await (await app.request('/api/v1/nope')).text();
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatchObject({
      method: 'GET',
      route: 'contracts',
      status: 200,
      upstreamStatus: 200,
    });
    expect(lines[1]).toMatchObject({ route: 'unmatched', status: 404 });
    expect(JSON.stringify(lines)).not.toContain('secret-key-123');
  });
});
