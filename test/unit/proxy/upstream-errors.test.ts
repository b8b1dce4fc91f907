import { describe, expect, it } from 'vitest';
import { createProxyApp, type RequestLog } from '../../../src/server/proxy/app';
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
