import { describe, expect, it } from 'vitest';
import { createProxy, createProxyApp, type RequestLog } from '../../../src/server/proxy/app';
import { fakeUpstream } from './fake-upstream';

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
    const response = await createProxyApp({ upstream }).request('/api/v1/contracts');
    expect(response.status).toBe(expected);
    expect((await errorOf(response)).kind).toBe(kind);
  });

  it.each([400, 401, 403, 404, 410, 429, 500, 502, 503])(
    'says upstream %i in words of its own, never the upstream’s',
    async (status) => {
      const { upstream } = fakeUpstream(() =>
        Response.json({ message: 'UPSTREAM-TEXT <b>limit</b>' }, { status }),
      );
      const proxy = createProxy({ upstream });
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
    const response = await createProxyApp({ upstream }).request('/api/v1/contracts');
    expect(response.headers.get('retry-after')).toBe('7');
    expect((await errorOf(response)).retryAfterSeconds).toBe(7);
  });

  it('gives 504 when the upstream is too slow', async () => {
    // Never answers and ignores the abort signal: the proxy must not rely on it.
    const { upstream } = fakeUpstream(() => new Promise<Response>(() => {}));
    const response = await createProxyApp({ upstream, timeoutMs: 50 }).request('/api/v1/contracts');
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
    const response = await createProxyApp({ upstream, timeoutMs: 50 }).request('/api/v1/contracts');
    expect(response.status).toBe(504);
  });

  it('gives 502 unreachable when the connection fails', async () => {
    const { upstream } = fakeUpstream(() => {
      throw new TypeError('fetch failed');
    });
    const response = await createProxyApp({ upstream }).request('/api/v1/contracts');
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
    const response = await createProxyApp({ upstream }).request('/api/v1/contracts');
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
    const response = await createProxyApp({ upstream }).request('/api/v1/contracts');
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
    const app = createProxyApp({ upstream });
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
    const response = await createProxyApp({ upstream }).request('/api/v1/contracts');
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual(page);
  });

  it('answers a thrown error with our JSON 500, its stack in the log line, nothing of it sent', async () => {
    const lines: RequestLog[] = [];
    const big = { result: Array.from({ length: 200 }, (_, i) => ({ event_id: `0x${i}` })) };
    const { upstream } = fakeUpstream(() => Response.json(big));
    const app = createProxyApp({
      upstream,
      log: (line) => lines.push(line),
      gzip: () => Promise.reject(new Error('zlib exploded at /secret/path')),
    });
    const response = await app.request('/api/v1/contracts', {
      headers: { 'accept-encoding': 'gzip' },
    });
    expect(response.status).toBe(500);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    const text = await response.text();
    expect(text).not.toMatch(/zlib|secret/);
    expect(JSON.parse(text)).toEqual({
      error: { kind: 'internal', status: 500, message: expect.stringMatching(/server failed/) },
    });
    expect(lines).toEqual([
      expect.objectContaining({
        route: 'contracts',
        status: 500,
        error: expect.stringMatching(/zlib exploded/),
      }),
    ]);
  });

  it('logs one line per request with the upstream status and never the key', async () => {
    const lines: RequestLog[] = [];
    const { upstream } = fakeUpstream();
    const app = createProxyApp({ upstream, log: (line) => lines.push(line) });
    await app.request('/api/v1/contracts');
    await app.request('/api/v1/nope');
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

  it('compresses large pages for the browser', async () => {
    const big = {
      result: Array.from({ length: 200 }, (_, i) => ({ event_id: `0x${i}`.padEnd(66, '0') })),
    };
    const { upstream } = fakeUpstream(() => Response.json(big));
    const response = await createProxyApp({ upstream }).request('/api/v1/contracts', {
      headers: { 'accept-encoding': 'gzip' },
    });
    expect(response.headers.get('content-encoding')).toBe('gzip');
  });
});
