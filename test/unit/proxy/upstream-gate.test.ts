import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  createUpstreamGate,
  PROBE_INTERVAL_MS,
  type GateEntry,
  type UpstreamGateSettings,
} from '../../../src/server/upstream/gate';
import { fakeUpstream } from './fake-upstream';
import { useProxies } from './proxy-harness';
import { fromSocket } from '../../support/socket-bindings';

const A = '0x' + '0'.repeat(60) + 'abcd';
const settings = (overrides: Partial<UpstreamGateSettings> = {}): UpstreamGateSettings => ({
  concurrency: 2,
  queueTimeoutMs: 10_000,
  ratePerSecond: 0,
  ...overrides,
});

/** Fake timers and clock for every test of the calling `describe`. */
function useFakeClock() {
  beforeEach(() => {
    vi.useFakeTimers();
    vi.setSystemTime(new Date('2025-01-01T00:00:00Z'));
  });
  afterEach(() => vi.useRealTimers());
}

/** Entries in the order they settle, to check admission order and timing. */
function recorder() {
  const settled: Array<[string, GateEntry]> = [];
  const track = (name: string, entry: Promise<GateEntry>) =>
    entry.then((value) => settled.push([name, value]));
  const names = (kind: GateEntry['kind']) =>
    settled.filter(([, entry]) => entry.kind === kind).map(([name]) => name);
  const release = (name: string) => {
    const entry = settled.find(([n]) => n === name)?.[1];
    if (entry?.kind !== 'admitted') throw new Error(`${name} was not admitted`);
    entry.release();
  };
  return { settled, track, names, release };
}

describe('upstream gate', () => {
  useFakeClock();

  it('lets a bounded number through and admits the rest in arrival order', async () => {
    const gate = createUpstreamGate(settings());
    const r = recorder();
    for (const name of ['a', 'b', 'c', 'd', 'e']) r.track(name, gate.enter('x'));
    await vi.advanceTimersByTimeAsync(0);
    expect(r.names('admitted')).toEqual(['a', 'b']);
    expect(gate.stats()).toMatchObject({ active: 2, queued: 3 });
    r.release('b');
    r.release('b'); // a second release must not free a second place
    await vi.advanceTimersByTimeAsync(0);
    expect(r.names('admitted')).toEqual(['a', 'b', 'c']);
    r.release('a');
    r.release('c');
    await vi.advanceTimersByTimeAsync(0);
    expect(r.names('admitted')).toEqual(['a', 'b', 'c', 'd', 'e']);
  });

  it('answers busy when the wait for a place exceeds the queue timeout', async () => {
    const gate = createUpstreamGate(settings({ concurrency: 1, queueTimeoutMs: 100 }));
    const r = recorder();
    r.track('a', gate.enter('x'));
    r.track('b', gate.enter('x'));
    await vi.advanceTimersByTimeAsync(99);
    expect(r.names('busy')).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(r.names('busy')).toEqual(['b']);
    expect(gate.stats().queued).toBe(0);
  });

  it('answers busy at once when the queue is full', async () => {
    const gate = createUpstreamGate(settings({ concurrency: 1, maxQueue: 2 }));
    const r = recorder();
    for (const name of ['a', 'b', 'c', 'd']) r.track(name, gate.enter('x'));
    await vi.advanceTimersByTimeAsync(0);
    expect(r.names('busy')).toEqual(['d']);
  });

  it('drops a waiting request whose client has gone', async () => {
    const gate = createUpstreamGate(settings({ concurrency: 1 }));
    const r = recorder();
    const gone = new AbortController();
    r.track('a', gate.enter('x'));
    r.track('b', gate.enter('x', gone.signal));
    r.track('c', gate.enter('x'));
    gone.abort();
    await vi.advanceTimersByTimeAsync(0);
    expect(r.names('aborted')).toEqual(['b']);
    r.release('a');
    await vi.advanceTimersByTimeAsync(0);
    expect(r.names('admitted')).toEqual(['a', 'c']);
  });

  it('caps the request rate toward the upstream: at 5/s, one request every 200 ms', async () => {
    const gate = createUpstreamGate(settings({ concurrency: 100, ratePerSecond: 5 }));
    const r = recorder();
    for (let i = 0; i < 6; i += 1) r.track(String(i), gate.enter('x'));
    await vi.advanceTimersByTimeAsync(0);
    expect(r.names('admitted')).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(199);
    expect(r.names('admitted')).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(r.names('admitted')).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(800);
    expect(r.names('admitted')).toHaveLength(6);
  });

  it('spends a budget given to it (one several servers share) instead of its own', async () => {
    const asked: number[] = [];
    const budget = { take: async () => (asked.push(Date.now()), asked.length % 2 ? 0 : 500) };
    const gate = createUpstreamGate(settings({ concurrency: 100, ratePerSecond: 5, budget }));
    const r = recorder();
    for (let i = 0; i < 3; i += 1) r.track(String(i), gate.enter('x'));
    await vi.advanceTimersByTimeAsync(0);
    // Granted, then refused for 500 ms: the next request waits that long and asks again.
    expect(r.names('admitted')).toEqual(['0']);
    await vi.advanceTimersByTimeAsync(499);
    expect(r.names('admitted')).toEqual(['0']);
    await vi.advanceTimersByTimeAsync(1);
    expect(r.names('admitted')).toEqual(['0', '1']);
  });

  it('after a 429 with Retry-After, everyone waits that long', async () => {
    const gate = createUpstreamGate(settings());
    gate.reportThrottled(3);
    const r = recorder();
    r.track('a', gate.enter('x'));
    await vi.advanceTimersByTimeAsync(2_999);
    expect(r.settled).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(r.names('admitted')).toEqual(['a']);
  });

  it('answers at once, with the time left, when the cool-down outlasts the queue timeout', async () => {
    const gate = createUpstreamGate(settings({ queueTimeoutMs: 1000 }));
    const r = recorder();
    r.track('waiting', gate.enter('x'));
    gate.reportThrottled(30);
    r.track('late', gate.enter('x'));
    await vi.advanceTimersByTimeAsync(0);
    expect(r.settled.find(([name]) => name === 'late')?.[1]).toEqual({
      kind: 'throttled',
      retryAfterSeconds: 30,
    });
  });

  it('answers requests already waiting when a cool-down outlasts their deadline', async () => {
    const gate = createUpstreamGate(settings({ concurrency: 1, queueTimeoutMs: 5_000 }));
    const r = recorder();
    r.track('a', gate.enter('x'));
    r.track('b', gate.enter('x'));
    r.track('c', gate.enter('x'));
    await vi.advanceTimersByTimeAsync(0);
    gate.reportThrottled(60);
    await vi.advanceTimersByTimeAsync(0);
    expect(r.names('throttled')).toEqual(['b', 'c']);
  });

  it('backs off exponentially when 429s come without Retry-After, and recovers on success', async () => {
    const gate = createUpstreamGate(settings());
    const coolDown = () => gate.stats().coolingDownMs;
    gate.reportThrottled();
    expect(coolDown()).toBe(1000);
    gate.reportThrottled(); // in flight during the same cool-down: one event
    expect(coolDown()).toBe(1000);
    await vi.advanceTimersByTimeAsync(1000);
    gate.reportThrottled();
    expect(coolDown()).toBe(2000);
    await vi.advanceTimersByTimeAsync(2000);
    gate.reportThrottled();
    expect(coolDown()).toBe(4000);
    await vi.advanceTimersByTimeAsync(4000);
    gate.reportSuccess();
    gate.reportThrottled();
    expect(coolDown()).toBe(1000);
  });

  it('never backs off for more than a minute', async () => {
    const gate = createUpstreamGate(settings());
    for (let i = 0; i < 20; i += 1) {
      gate.reportThrottled();
      await vi.advanceTimersByTimeAsync(gate.stats().coolingDownMs);
    }
    gate.reportThrottled();
    expect(gate.stats().coolingDownMs).toBe(60_000);
  });
});

describe('cool-down cap and probes', () => {
  useFakeClock();

  it('never cools down longer than the cap, whatever Retry-After asks', () => {
    expect(
      (() => {
        const gate = createUpstreamGate(settings());
        gate.reportThrottled(3600);
        return gate.stats().coolingDownMs;
      })(),
    ).toBe(60_000);
    const gate = createUpstreamGate(settings({ maxCoolDownMs: 5_000 }));
    gate.reportThrottled(3600);
    expect(gate.stats()).toMatchObject({
      coolingDownMs: 5_000,
      coolingDownUntil: Date.now() + 5_000,
    });
  });

  it('lets one probe through now and then during a cool-down; its success ends it', async () => {
    const gate = createUpstreamGate(settings({ queueTimeoutMs: 1_000 }));
    gate.reportThrottled(3600);
    const r = recorder();
    r.track('early', gate.enter('a'));
    await vi.advanceTimersByTimeAsync(PROBE_INTERVAL_MS);
    r.track('probe', gate.enter('a'));
    r.track('second', gate.enter('b'));
    await vi.advanceTimersByTimeAsync(0);
    expect(r.names('throttled')).toEqual(['early', 'second']);
    expect(r.names('admitted')).toEqual(['probe']);
    r.release('probe');
    gate.reportSuccess();
    expect(gate.stats().coolingDownMs).toBe(0);
    r.track('after', gate.enter('b'));
    await vi.advanceTimersByTimeAsync(0);
    expect(r.names('admitted')).toEqual(['probe', 'after']);
  });

  it('keeps cooling down when the probe is throttled too, and probes again later', async () => {
    const gate = createUpstreamGate(settings({ queueTimeoutMs: 1_000 }));
    gate.reportThrottled(3600);
    const r = recorder();
    await vi.advanceTimersByTimeAsync(PROBE_INTERVAL_MS);
    r.track('probe 1', gate.enter('a'));
    await vi.advanceTimersByTimeAsync(0);
    r.release('probe 1');
    gate.reportThrottled(3600);
    expect(gate.stats().coolingDownMs).toBe(60_000);
    r.track('too soon', gate.enter('a'));
    await vi.advanceTimersByTimeAsync(PROBE_INTERVAL_MS);
    r.track('probe 2', gate.enter('a'));
    await vi.advanceTimersByTimeAsync(0);
    expect(r.names('admitted')).toEqual(['probe 1', 'probe 2']);
    expect(r.names('throttled')).toEqual(['too soon']);
  });
});

describe('fair share between clients', () => {
  useFakeClock();

  it('serves waiting clients in turn, not in arrival order', async () => {
    const gate = createUpstreamGate(settings({ concurrency: 1, ratePerSecond: 5 }));
    const r = recorder();
    for (let i = 0; i < 50; i += 1) r.track(`a${i}`, gate.enter('a'));
    await vi.advanceTimersByTimeAsync(0);
    r.track('b0', gate.enter('b'));
    r.track('b1', gate.enter('b'));
    await vi.advanceTimersByTimeAsync(0);
    for (let turn = 0; turn < 4; turn += 1) {
      r.release(r.names('admitted').at(-1)!);
      await vi.advanceTimersByTimeAsync(200);
    }
    // a0 went before b arrived; from then on the two take turns.
    expect(r.names('admitted')).toEqual(['a0', 'a1', 'b0', 'a2', 'b1']);
    expect(gate.stats()).toMatchObject({ queued: 47, clientsWaiting: 1 });
  });

  it('while others wait, holds a client to its share of the places in flight', async () => {
    const gate = createUpstreamGate(settings({ concurrency: 4, clientShare: 0.5 }));
    const r = recorder();
    for (let i = 0; i < 6; i += 1) r.track(`a${i}`, gate.enter('a'));
    await vi.advanceTimersByTimeAsync(0);
    // Alone, a client may use every place.
    expect(r.names('admitted')).toEqual(['a0', 'a1', 'a2', 'a3']);
    r.track('b0', gate.enter('b'));
    r.track('b1', gate.enter('b'));
    r.release('a0');
    await vi.advanceTimersByTimeAsync(0);
    r.release('a1');
    await vi.advanceTimersByTimeAsync(0);
    // a has 2 of 4 places, its share, so the next turns go to b, which is waiting.
    expect(r.names('admitted').slice(4)).toEqual(['b0', 'b1']);
  });

  it('makes room in a full queue by turning away the longest queue first', async () => {
    const gate = createUpstreamGate(settings({ concurrency: 1, maxQueue: 5 }));
    const r = recorder();
    r.track('running', gate.enter('a'));
    for (let i = 0; i < 5; i += 1) r.track(`a${i}`, gate.enter('a'));
    r.track('b0', gate.enter('b'));
    await vi.advanceTimersByTimeAsync(0);
    expect(r.names('busy')).toEqual(['a4']);
    expect(gate.stats()).toMatchObject({ queued: 5, clientsWaiting: 2 });
    r.track('a5', gate.enter('a'));
    await vi.advanceTimersByTimeAsync(0);
    expect(r.names('busy')).toEqual(['a4', 'a5']);
  });
});

describe('the proxy behind the gate', () => {
  const { proxyOn } = useProxies();
  /** Distinct lists (a token's events each), so that no list's own lock hides the concurrency. */
  const list = (i: number) => `/api/v1/events/${A}/${i}`;
  const noRateLimit = { perMinute: 0, burst: 1 };

  it('keeps at most the configured number of upstream requests in flight', async () => {
    let inFlight = 0;
    let most = 0;
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    const { upstream, listCalls } = fakeUpstream(
      async () => {
        inFlight += 1;
        most = Math.max(most, inFlight);
        await released;
        inFlight -= 1;
        return Response.json({ result: [], cursor: null });
      },
      { contracts: [A] },
    );
    const { app } = await proxyOn(upstream, { proxy: { rateLimit: noRateLimit } });
    const pending = Array.from({ length: 20 }, (_, i) => app.request(list(i)));
    await vi.waitFor(() => expect(listCalls()).toHaveLength(4));
    release();
    const statuses = (await Promise.all(pending)).map((response) => response.status);
    expect(statuses).toEqual(Array(20).fill(200));
    expect(listCalls()).toHaveLength(20);
    expect(most).toBe(4);
  });

  it('answers 503 with a clear message when the queue wait is too long', async () => {
    const { upstream, listCalls } = fakeUpstream(() => new Promise<Response>(() => {}), {
      contracts: [A],
    });
    const { app } = await proxyOn(upstream, {
      proxy: {
        rateLimit: noRateLimit,
        timeoutMs: 500,
        gate: { concurrency: 1, queueTimeoutMs: 30, ratePerSecond: 0 },
      },
    });
    expect((await app.request('/api/v1/contracts')).status).toBe(200);
    void app.request(list(1));
    // The one place is taken by the first, which the upstream never answers.
    await vi.waitFor(() => expect(listCalls()).toHaveLength(1));
    const response = await app.request(list(2));
    expect(response.status).toBe(503);
    const body = (await response.json()) as { error: { kind: string; message: string } };
    expect(body.error.kind).toBe('busy');
    expect(body.error.message).toMatch(/busy/);
  });

  it('a flood of new lists from one client leaves another client’s answered in its turn', async () => {
    // Each upstream request waits until the test answers it: the order of answers is the
    // gate's order of turns, whatever the machine's speed.
    const waiting: Array<() => void> = [];
    const { upstream, listCalls } = fakeUpstream(
      () =>
        new Promise<Response>((resolve) =>
          waiting.push(() => resolve(Response.json({ result: [], cursor: null }))),
        ),
      { contracts: [A] },
    );
    const answerNext = async () => {
      await vi.waitFor(() => expect(waiting.length).toBeGreaterThan(0));
      waiting.shift()!();
    };
    const { app, proxy } = await proxyOn(upstream, {
      proxy: {
        rateLimit: noRateLimit,
        gate: { concurrency: 1, queueTimeoutMs: 60_000, ratePerSecond: 0 },
      },
    });
    expect((await app.request('/api/v1/contracts')).status).toBe(200);
    // More lists than the database has connections for locks: each must still wait for
    // the upstream in the gate, where turns are shared between clients.
    const FLOOD = 40;
    const flood = Array.from({ length: FLOOD }, (_, i) =>
      app.request(list(i), {}, fromSocket('10.0.0.1')),
    );
    await vi.waitFor(() => expect(waiting).toHaveLength(1));
    const answered: number[] = [];
    const other = Array.from({ length: 3 }, (_, i) =>
      Promise.resolve(app.request(list(1_000 + i), {}, fromSocket('10.0.0.2'))).then((response) => {
        answered.push(listCalls().length);
        return response.status;
      }),
    );
    await vi.waitFor(
      () => {
        const { active, queued } = proxy.stats().gate;
        expect(active + queued, 'every request waiting in the gate').toBe(FLOOD + 3);
      },
      { timeout: 10_000 },
    );
    for (let answers = 0; answered.length < 3 && answers < FLOOD + 3; answers += 1) {
      await answerNext();
    }
    expect(await Promise.all(other)).toEqual([200, 200, 200]);
    // Turns alternate (the flood's request in flight and the next in its queue go first):
    // the other client is answered among the first requests, not after the flood's forty.
    expect(answered.at(-1)).toBeLessThanOrEqual(10);
    while (listCalls().length < FLOOD + 3 || waiting.length > 0) await answerNext();
    expect((await Promise.all(flood)).map((response) => response.status)).toEqual(
      Array(FLOOD).fill(200),
    );
  });

  it('after the upstream says 429, answers others itself instead of asking again', async () => {
    const { upstream, listCalls } = fakeUpstream(
      () =>
        Response.json(
          { message: 'Too Many Requests' },
          { status: 429, headers: { 'retry-after': '30' } },
        ),
      { contracts: [A] },
    );
    const { app, proxy } = await proxyOn(upstream, { proxy: { rateLimit: noRateLimit } });
    const first = await app.request(list(1));
    expect(first.status).toBe(429);
    const responses = await Promise.all(
      Array.from({ length: 10 }, (_, i) => app.request(list(i + 2))),
    );
    expect(listCalls()).toHaveLength(1);
    for (const response of responses) {
      expect(response.status).toBe(429);
      expect(Number(response.headers.get('retry-after'))).toBeGreaterThan(25);
      const body = (await response.json()) as { error: { kind: string } };
      expect(body.error.kind).toBe('rate_limited');
    }
    expect(proxy.stats().gate.coolingDownMs).toBeGreaterThan(25_000);
  });
});
