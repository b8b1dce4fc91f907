import { gunzipSync } from 'node:zlib';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createProxyApp } from '../../../src/server/proxy/app';
import { createCoalescer } from '../../../src/server/upstream/coalesce';
import { createPageCache, type Page } from '../../../src/server/proxy/page-cache';
import { fakeUpstream } from './fake-upstream';

const A = '0x' + '0'.repeat(60) + 'abcd';
const noRateLimit = { perMinute: 0, burst: 1 };
// A page large enough to be sent compressed.
const bigPage = (cursor: string | null) => ({
  result: Array.from({ length: 100 }, (_, i) => ({ event_id: `0x${i}`.padEnd(66, '0') })),
  cursor,
});

/** An upstream whose answers wait until `release()`, to hold requests in flight. */
function heldUpstream(answer: () => Response = () => Response.json(bigPage('next'))) {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  const fake = fakeUpstream(async () => {
    await released;
    return answer();
  });
  return { ...fake, release };
}

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(new Date('2025-01-01T00:00:00Z'));
});
afterEach(() => vi.useRealTimers());

describe('shared page cache and request coalescing', () => {
  it.each([
    ['next-page_1~', 'next-page_1~'],
    [null, null],
    ['', null],
    ['two\nlines', null],
    ['caf\u00e9', null],
  ])('names the next cursor %j in X-Next-Cursor as %j', async (cursor, header) => {
    const { upstream } = fakeUpstream(() => Response.json(bigPage(cursor)));
    const app = createProxyApp({ upstream, rateLimit: noRateLimit });
    const response = await app.request(`/api/v1/events/${A}?cursor=abc`);
    expect(response.status).toBe(200);
    expect(response.headers.get('x-next-cursor')).toBe(header);
    expect(((await response.json()) as { cursor: unknown }).cursor).toBe(cursor);
  });

  it('sends 100 concurrent identical requests upstream once', async () => {
    const { upstream, calls, release } = heldUpstream();
    const app = createProxyApp({ upstream, rateLimit: noRateLimit });
    const pending = Array.from({ length: 100 }, () => app.request('/api/v1/contracts'));
    await vi.waitFor(() => expect(calls).toHaveLength(1));
    release();
    const responses = await Promise.all(pending);
    expect(calls).toHaveLength(1);
    expect(responses.every((response) => response.status === 200)).toBe(true);
    const states = responses.map((response) => response.headers.get('x-cache'));
    expect(states.filter((state) => state === 'miss')).toHaveLength(1);
    expect(states.filter((state) => state === 'coalesced')).toHaveLength(99);
    const bodies = new Set(await Promise.all(responses.map((response) => response.text())));
    expect(bodies.size).toBe(1);
  });

  it('answers 100 sequential requests within the first-page time from one upstream call', async () => {
    const { upstream, calls } = fakeUpstream(() => Response.json(bigPage('next')));
    const app = createProxyApp({ upstream, rateLimit: noRateLimit });
    for (let i = 0; i < 100; i += 1) {
      const response = await app.request(`/api/v1/events/${A}`);
      expect(response.status).toBe(200);
      expect(response.headers.get('x-cache')).toBe(i === 0 ? 'miss' : 'hit');
      vi.advanceTimersByTime(40); // 100 × 40 ms stays inside the 5 s
    }
    expect(calls).toHaveLength(1);
  });

  it('asks again once a first page has expired', async () => {
    const { upstream, calls } = fakeUpstream(() => Response.json(bigPage('next')));
    const app = createProxyApp({ upstream, rateLimit: noRateLimit });
    await app.request('/api/v1/contracts');
    vi.advanceTimersByTime(4_999);
    expect((await app.request('/api/v1/contracts')).headers.get('x-cache')).toBe('hit');
    vi.advanceTimersByTime(1);
    expect((await app.request('/api/v1/contracts')).headers.get('x-cache')).toBe('miss');
    expect(calls).toHaveLength(2);
  });

  it('keeps pages behind a cursor for much longer, and tells shared caches so', async () => {
    const { upstream, calls } = fakeUpstream(() => Response.json(bigPage('next')));
    const app = createProxyApp({ upstream, rateLimit: noRateLimit });
    const first = await app.request('/api/v1/contracts');
    expect(first.headers.get('cache-control')).toBe('public, max-age=5, s-maxage=5');
    const page = await app.request('/api/v1/contracts?cursor=abc');
    expect(page.headers.get('cache-control')).toBe('public, max-age=600, s-maxage=600, immutable');
    vi.advanceTimersByTime(5 * 60_000);
    const later = await app.request('/api/v1/contracts?cursor=abc');
    expect(later.headers.get('x-cache')).toBe('hit');
    // max-age counts down what is left, so nobody keeps the page longer than we do.
    expect(later.headers.get('cache-control')).toBe('public, max-age=300, s-maxage=300, immutable');
    expect(calls).toHaveLength(2);
    vi.advanceTimersByTime(5 * 60_000);
    expect((await app.request('/api/v1/contracts?cursor=abc')).headers.get('x-cache')).toBe('miss');
  });

  it('treats the last page of a list as still growing', async () => {
    const { upstream } = fakeUpstream(() => Response.json(bigPage(null)));
    const app = createProxyApp({ upstream, rateLimit: noRateLimit });
    const tail = await app.request('/api/v1/contracts?cursor=abc');
    expect(tail.headers.get('cache-control')).toBe('public, max-age=5, s-maxage=5');
  });

  it('takes its times from the settings', async () => {
    const { upstream, calls } = fakeUpstream(() => Response.json(bigPage('next')));
    const cache = { firstPageTtlMs: 0, cursorPageTtlMs: 60_000, maxBytes: 1024 * 1024 };
    const app = createProxyApp({ upstream, rateLimit: noRateLimit, cache });
    const first = await app.request('/api/v1/contracts');
    expect(first.headers.get('cache-control')).toBe('no-store');
    await app.request('/api/v1/contracts');
    expect(calls).toHaveLength(2);
    const page = await app.request('/api/v1/contracts?cursor=x');
    expect(page.headers.get('cache-control')).toBe('public, max-age=60, s-maxage=60, immutable');
  });

  it.each([
    ['an error status', () => Response.json({ message: 'Internal server error' }, { status: 502 })],
    ['a refused key', () => Response.json({ message: 'Forbidden' }, { status: 403 })],
    ['malformed JSON', () => new Response('{"result": [', { status: 200 })],
  ])('never keeps %s', async (_name, failure) => {
    let failing = true;
    const { upstream, calls } = fakeUpstream(() =>
      failing ? failure() : Response.json(bigPage('next')),
    );
    const app = createProxyApp({ upstream, rateLimit: noRateLimit });
    const error = await app.request('/api/v1/contracts');
    expect(error.status).toBeGreaterThanOrEqual(400);
    expect(error.headers.get('cache-control')).toBe('no-store');
    failing = false;
    const next = await app.request('/api/v1/contracts');
    expect(next.status).toBe(200);
    expect(next.headers.get('x-cache')).toBe('miss');
    expect(calls).toHaveLength(2);
  });

  it('gives every coalesced caller the shared error', async () => {
    const { upstream, calls, release } = heldUpstream(() =>
      Response.json({ message: 'Internal server error' }, { status: 502 }),
    );
    const app = createProxyApp({ upstream, rateLimit: noRateLimit });
    const pending = Array.from({ length: 10 }, () => app.request('/api/v1/contracts'));
    await vi.waitFor(() => expect(calls).toHaveLength(1));
    release();
    const responses = await Promise.all(pending);
    expect(responses.map((response) => response.status)).toEqual(Array(10).fill(502));
    expect(calls).toHaveLength(1);
  });

  it('keys on the canonical upstream path, so spellings of one page share it', async () => {
    const { upstream, calls } = fakeUpstream(() => Response.json(bigPage('next')));
    const app = createProxyApp({ upstream, rateLimit: noRateLimit });
    await app.request(`/api/v1/events/0xABCD/0x0A?limit=5`);
    const same = await app.request(`/api/v1/events/${A}/10?limit=5`);
    expect(same.headers.get('x-cache')).toBe('hit');
    const other = await app.request(`/api/v1/events/${A}/10?limit=6`);
    expect(other.headers.get('x-cache')).toBe('miss');
    expect(calls).toHaveLength(2);
  });

  it('sends stored gzip bytes to clients that accept gzip, and plain JSON to the others', async () => {
    const { upstream } = fakeUpstream(() => Response.json(bigPage('next')));
    const app = createProxyApp({ upstream, rateLimit: noRateLimit });
    const plain = await app.request('/api/v1/contracts');
    expect(plain.headers.get('content-encoding')).toBeNull();
    const text = await plain.text();
    const zipped = await app.request('/api/v1/contracts', {
      headers: { 'accept-encoding': 'gzip, deflate, br' },
    });
    expect(zipped.headers.get('content-encoding')).toBe('gzip');
    expect(zipped.headers.get('vary')).toMatch(/accept-encoding/i);
    const bytes = new Uint8Array(await zipped.arrayBuffer());
    expect(gunzipSync(bytes).toString('utf8')).toBe(text);
    const refused = await app.request('/api/v1/contracts', {
      headers: { 'accept-encoding': 'gzip;q=0, identity' },
    });
    expect(refused.headers.get('content-encoding')).toBeNull();
  });
});

describe('the page store', () => {
  const page = (bytes: number, expiresAt = Date.now() + 60_000): Page => ({
    body: new Uint8Array(bytes),
    expiresAt,
    immutable: false,
  });

  // Each 1000-byte page counts about 1,560 bytes: body, its gzip estimate and entry overhead.
  it('stays within its byte bound, dropping the least recently used page', () => {
    const cache = createPageCache(3 * 1600);
    cache.set('a', page(1000));
    cache.set('b', page(1000));
    cache.set('c', page(1000));
    expect(cache.get('a')).toBeDefined(); // now b is the least recently used
    cache.set('d', page(1000));
    expect(cache.get('b')).toBeUndefined();
    expect(cache.get('a')).toBeDefined();
    expect(cache.get('c')).toBeDefined();
    expect(cache.get('d')).toBeDefined();
    expect(cache.stats().bytes).toBeLessThanOrEqual(3 * 1600);
  });

  it('refuses a page larger than the whole bound, and keeps nothing when the bound is 0', () => {
    const small = createPageCache(1000);
    small.set('big', page(5000));
    expect(small.stats()).toEqual({ entries: 0, bytes: 0 });
    const none = createPageCache(0);
    none.set('a', page(1));
    expect(none.get('a')).toBeUndefined();
  });

  it('forgets expired pages when asked for them', () => {
    const cache = createPageCache(10_000);
    cache.set('a', page(100, Date.now() + 10));
    vi.advanceTimersByTime(10);
    expect(cache.get('a')).toBeUndefined();
    expect(cache.stats()).toEqual({ entries: 0, bytes: 0 });
  });
});

describe('coalescing', () => {
  it('lets a caller that has already gone leave at once, cancelling a run nobody else waits for', async () => {
    const flights = createCoalescer<string>();
    let taskSignal: AbortSignal | undefined;
    const gone = new AbortController();
    gone.abort();
    const run = flights.run(
      'k',
      (signal) => {
        taskSignal = signal;
        return new Promise<string>((resolve) =>
          signal.addEventListener('abort', () => resolve('cancelled')),
        );
      },
      gone.signal,
    );
    expect(taskSignal?.aborted).toBe(true);
    expect(await run).toEqual({ value: 'cancelled', joined: false });
    expect(flights.inFlight()).toBe(0);
  });

  it('cancels the shared run only when every caller has gone', async () => {
    const flights = createCoalescer<string>();
    let taskSignal: AbortSignal | undefined;
    const finishes: Array<(value: string) => void> = [];
    const task = (signal: AbortSignal) => {
      taskSignal = signal;
      return new Promise<string>((resolve) => finishes.push(resolve));
    };
    const one = new AbortController();
    const two = new AbortController();
    const first = flights.run('k', task, one.signal);
    const second = flights.run('k', task, two.signal);
    one.abort();
    expect(taskSignal?.aborted).toBe(false);
    two.abort();
    expect(taskSignal?.aborted).toBe(true);
    // A caller arriving after the cancellation starts a fresh run.
    const third = flights.run('k', task);
    expect(finishes).toHaveLength(2);
    for (const finish of finishes) finish('done');
    expect(await third).toEqual({ value: 'done', joined: false });
    expect(await first).toEqual({ value: 'done', joined: false });
    expect(await second).toEqual({ value: 'done', joined: true });
  });
});
