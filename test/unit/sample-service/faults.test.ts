import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  createSampleService,
  FAULT_HEADER,
  parseFaultPlan,
  type FaultPlan,
  type Profile,
  type SampleService,
} from '../../../src/server/sample-service';
import { API_KEY, dataset, get, SMALL, type Json } from './helpers';

const data = dataset(SMALL);
const CONTRACTS = '/v1/contracts?limit=3';

function service(faults?: FaultPlan, profile: Profile = 'deployed'): SampleService {
  return createSampleService({ apiKey: API_KEY, dataset: data, profile, faults, control: true });
}

async function statuses(target: SampleService, count: number, path = CONTRACTS): Promise<number[]> {
  const seen: number[] = [];
  for (let n = 0; n < count; n += 1) seen.push((await get(target, path)).status);
  return seen;
}

describe('fault injection', () => {
  it('adds latency', async () => {
    const target = service({ latencyMs: 60 });
    const started = performance.now();
    expect((await get(target, CONTRACTS)).status).toBe(200);
    // Timers never fire early by more than rounding.
    expect(performance.now() - started).toBeGreaterThanOrEqual(55);
  });

  it('lets an abort end a slow request, as fetch does', async () => {
    const target = service({ latencyMs: 10_000 });
    const request = target.fetch(CONTRACTS, {
      headers: { 'x-api-key': API_KEY },
      signal: AbortSignal.timeout(20),
    });
    await expect(request).rejects.toMatchObject({ name: 'TimeoutError' });
  });

  it('answers a given status with the service body', async () => {
    for (const profile of ['documented', 'deployed'] as const) {
      const target = service({ fault: { type: 'status', status: 503 } }, profile);
      const answer = await get(target, CONTRACTS);
      expect(answer.status).toBe(503);
      expect(JSON.parse(answer.text)).toEqual({ message: 'Service Unavailable' });
      expect(answer.headers.get(FAULT_HEADER)).toBe('status');
    }
    const quota = service({ fault: { type: 'status', status: 429, message: 'Limit Exceeded' } });
    expect(JSON.parse((await get(quota, CONTRACTS)).text)).toEqual({ message: 'Limit Exceeded' });
  });

  it('answers 429 with and without Retry-After', async () => {
    const withRetry = await get(
      service({ fault: { type: 'status', status: 429, retryAfterSeconds: 7 } }),
      CONTRACTS,
    );
    expect(withRetry.status).toBe(429);
    expect(withRetry.headers.get('retry-after')).toBe('7');
    expect(JSON.parse(withRetry.text)).toEqual({ message: 'Too Many Requests' });
    const without = await get(service({ fault: { type: 'status', status: 429 } }), CONTRACTS);
    expect(without.status).toBe(429);
    expect(without.headers.get('retry-after')).toBeNull();
  });

  it('sends malformed JSON with status 200', async () => {
    const answer = await get(service({ fault: { type: 'malformed-json' } }), CONTRACTS);
    expect(answer.status).toBe(200);
    expect(() => JSON.parse(answer.text)).toThrow(SyntaxError);
  });

  it('cuts a valid body in the middle', async () => {
    const whole = (await get(service(), CONTRACTS)).text;
    const answer = await get(service({ fault: { type: 'truncated' } }), CONTRACTS);
    expect(answer.status).toBe(200);
    expect(answer.text.length).toBeGreaterThan(0);
    expect(whole.startsWith(answer.text) && answer.text.length < whole.length).toBe(true);
    expect(() => JSON.parse(answer.text)).toThrow(SyntaxError);
  });

  it('leaves the cursor out of a page, as the real service does when its cursor cache is away', async () => {
    for (const profile of ['documented', 'deployed'] as const) {
      const whole = JSON.parse((await get(service(undefined, profile), CONTRACTS)).text) as Json;
      expect(typeof whole.cursor).toBe('string');
      const answer = await get(service({ fault: { type: 'no-cursor' } }, profile), CONTRACTS);
      expect(answer.status).toBe(200);
      expect(answer.headers.get(FAULT_HEADER)).toBe('no-cursor');
      // A full page (as many records as the limit) that looks like the last one.
      expect(JSON.parse(answer.text)).toEqual({ result: whole.result });
    }
    // An error answer passes as it is.
    const failing = service({ fault: { type: 'no-cursor' } });
    expect((await get(failing, '/v1/contracts?limit=0')).status).toBe(502);
  });

  it('drops the connection in-process: fetch rejects, a raw response body fails', async () => {
    const target = service({ fault: { type: 'drop' } });
    await expect(
      target.fetch(CONTRACTS, { headers: { 'x-api-key': API_KEY } }),
    ).rejects.toBeInstanceOf(TypeError);
    const raw = await target.app.request(CONTRACTS, { headers: { 'x-api-key': API_KEY } });
    await expect(raw.text()).rejects.toBeInstanceOf(TypeError);
  });

  it('applies only to the nth data request, or to `times` requests from it', async () => {
    const status503 = { type: 'status', status: 503 } as const;
    expect(await statuses(service({ fault: status503, nth: 3 }), 5)).toEqual([
      200, 200, 503, 200, 200,
    ]);
    expect(await statuses(service({ fault: status503, nth: 2, times: 2 }), 5)).toEqual([
      200, 503, 503, 200, 200,
    ]);
    expect(await statuses(service({ fault: status503, times: 2 }), 3)).toEqual([503, 503, 200]);
  });

  it('applies only to paths containing a substring, counting only those', async () => {
    const target = service({
      fault: { type: 'status', status: 500 },
      pathIncludes: '/v1/events/',
      nth: 2,
    });
    const events = `/v1/events/${data.contracts[1]?.address ?? ''}`;
    expect(await statuses(target, 2)).toEqual([200, 200]);
    expect(await statuses(target, 3, events)).toEqual([200, 500, 200]);
    expect(target.requestCount()).toBe(5);
  });

  it('changes at runtime, restarting the count', async () => {
    const target = service({ fault: { type: 'status', status: 500 } });
    expect(await statuses(target, 1)).toEqual([500]);
    target.setFaults(null);
    expect(await statuses(target, 1)).toEqual([200]);
    target.setFaults({ fault: { type: 'status', status: 502 }, nth: 2 });
    expect(await statuses(target, 3)).toEqual([200, 502, 200]);
    expect(() => target.setFaults({ nth: 0 })).toThrow(TypeError);
  });

  it('is controlled over HTTP with the key', async () => {
    const target = service();
    const control = (method: string, path: string, body?: unknown, key = API_KEY) =>
      target.fetch(path, {
        method,
        headers: { 'x-api-key': key, 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    const plan: FaultPlan = {
      fault: { type: 'status', status: 429, retryAfterSeconds: 1 },
      nth: 2,
    };
    expect((await control('PUT', '/_control/faults', plan)).status).toBe(200);
    expect(await (await control('GET', '/_control/faults')).json()).toEqual(plan);
    expect(await statuses(target, 3)).toEqual([200, 429, 200]);
    expect(await (await control('GET', '/_control/stats')).json()).toEqual({
      requests: 3,
      throttled: 0,
    });
    expect((await control('PUT', '/_control/faults', { fault: { type: 'nope' } })).status).toBe(
      400,
    );
    expect((await control('PUT', '/_control/faults', null)).status).toBe(200);
    expect(await (await control('GET', '/_control/faults')).json()).toBeNull();
    expect((await control('GET', '/_control/stats', undefined, 'wrong')).status).toBe(403);
    // Control routes exist only when asked for.
    const plain = createSampleService({ apiKey: API_KEY, dataset: data, profile: 'documented' });
    expect((await get(plain, '/_control/stats')).status).toBe(404);
  });

  it('validates plans', () => {
    expect(
      parseFaultPlan({ latencyMs: 5, fault: { type: 'drop' }, nth: 1, times: 2, pathIncludes: 'x' })
        .ok,
    ).toBe(true);
    for (const bad of [
      { nth: 0 },
      { fault: { type: 'status', status: 200 } },
      { extra: 1 },
      'slow',
    ]) {
      expect(parseFaultPlan(bad).ok).toBe(false);
    }
  });
});

describe('fault injection on a real socket', () => {
  let close: (() => void) | undefined;
  afterEach(() => close?.());

  it('destroys the connection for a drop, and keeps serving afterwards', async () => {
    const target = service({ fault: { type: 'drop' }, nth: 1 });
    const server = serve({ fetch: target.app.fetch, port: 0, hostname: '127.0.0.1' });
    close = () => server.close();
    await once(server, 'listening');
    const { port } = server.address() as AddressInfo;
    const url = `http://127.0.0.1:${port}${CONTRACTS}`;
    const headers = { 'x-api-key': API_KEY };
    await expect(fetch(url, { headers })).rejects.toBeInstanceOf(TypeError);
    const after = await fetch(url, { headers });
    expect(after.status).toBe(200);
    expect(((await after.json()) as Json).result).toHaveLength(3);
  });
});

describe('the usage plan throttle', () => {
  it('answers past its bucket 429 "Too Many Requests", refilled at its rate, and counts arrivals', async () => {
    vi.useFakeTimers({ now: 1_000_000 });
    try {
      const target = createSampleService({
        apiKey: API_KEY,
        dataset: data,
        throttle: { perSecond: 5, burst: 2 },
        control: true,
      });
      expect(await statuses(target, 4)).toEqual([200, 200, 429, 429]);
      const refused = await get(target, CONTRACTS);
      expect(JSON.parse(refused.text)).toEqual({ message: 'Too Many Requests' });
      expect(refused.headers.get('retry-after')).toBeNull();
      vi.advanceTimersByTime(200);
      expect(await statuses(target, 2)).toEqual([200, 429]);
      const stats = (await get(target, '/_control/stats?since=1000000')).text;
      expect(JSON.parse(stats)).toMatchObject({ requests: 7, throttled: 4 });
      expect((JSON.parse(stats) as { arrivals: number[] }).arrivals).toHaveLength(7);
    } finally {
      vi.useRealTimers();
    }
  });
});
