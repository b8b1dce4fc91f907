import { describe, expect, it, vi } from 'vitest';
import { findGc } from '../../support/gc';
import { fakeUpstream } from './fake-upstream';
import { useProxies } from './proxy-harness';

/**
 * Each upstream fault, many times over, through /api/v1 and the record log: every answer
 * must be the right JSON error within the deadline, and nothing may pile up (reads in
 * flight, the gate's queue, the heap).
 */
const ROUNDS = 50;
const BATCH = 25;
// The deadline of one request, the database's work and the upstream's together: short
// where the fault is that the upstream never finishes (the answer is then 504 whatever
// else is slow), long elsewhere, where it only bounds a hang on a busy machine.
const HANG_TIMEOUT_MS = 200;
const TIMEOUT_MS = 10_000;
const A = '0x' + '0'.repeat(60) + 'abcd';
// The heap check: a leak of LEAK_BYTES per request, over every fault HEAP_REPEATS times,
// grows the heap past HEAP_BOUND; what a run leaves in pools and caches (measured: under
// 0.5 MB) stays below it. Each request costs the database's work, so there are fewer of
// them than a soak of the proxy alone could send, and the bound is tighter.
const HEAP_REPEATS = 4;
const LEAK_BYTES = 1_000;
const HEAP_BOUND = 1.5 * 1024 * 1024;

const encoder = new TextEncoder();
const faults: Array<[string, () => Response | Promise<Response>, number, string]> = [
  ['hangs', () => new Promise<Response>(() => {}), 504, 'timeout'],
  [
    'stalls mid-body',
    () => new Response(new ReadableStream({ start: (c) => c.enqueue(encoder.encode('{"res')) })),
    504,
    'timeout',
  ],
  [
    'resets the connection',
    () => {
      throw new TypeError('fetch failed', { cause: new Error('ECONNRESET') });
    },
    502,
    'unreachable',
  ],
  [
    'breaks off the body',
    () =>
      new Response(
        new ReadableStream({
          start(controller) {
            controller.enqueue(encoder.encode('{"result":['));
            controller.error(new Error('socket hang up'));
          },
        }),
      ),
    502,
    'upstream',
  ],
  ['sends malformed JSON', () => new Response('{"result": [1, 2,'), 502, 'invalid_response'],
  [
    'sends truncated JSON',
    () => new Response('{"result":[{"event_id":"0x1"}],"cursor":"ab'),
    502,
    'invalid_response',
  ],
  ['sends HTML', () => new Response('<html>502 Bad Gateway</html>'), 502, 'invalid_response'],
  [
    'answers 500',
    () => Response.json({ message: 'Internal server error' }, { status: 500 }),
    502,
    'upstream',
  ],
  ['answers 503', () => new Response('unavailable', { status: 503 }), 502, 'upstream'],
];

const { proxyOn } = useProxies();

/** A proxy over an upstream that lists contract A and answers every list with `answer`. */
async function faultyProxy(answer: () => Response | Promise<Response>, timeoutMs: number) {
  const { upstream, calls } = fakeUpstream(answer, { contracts: [A] });
  const { proxy } = await proxyOn(upstream, {
    proxy: {
      timeoutMs,
      rateLimit: { perMinute: 0, burst: 1 },
      gate: { concurrency: BATCH, queueTimeoutMs: 5_000, ratePerSecond: 0 },
    },
  });
  // The contracts list, read once (without the requests' deadline): what follows asks
  // only for the faulty lists.
  expect(await proxy.indexer.listingOf(A)).toBe('listed');
  // The stand-in's record of requests is not the server's memory: not kept.
  const forget = () => calls.splice(0);
  return { ...proxy, forget };
}

type Proxy = Awaited<ReturnType<typeof faultyProxy>>;

async function soak(proxy: Proxy, rounds: number, first = 0) {
  const answers: Array<{ status: number; kind: string }> = [];
  for (let start = first; start < first + rounds; start += BATCH) {
    const batch = Array.from({ length: Math.min(BATCH, first + rounds - start) }, async (_, i) => {
      // Distinct lists (a token's events each): no list's own lock hides a leak per request.
      const response = await proxy.app.request(`/api/v1/events/${A}/${start + i}`);
      const body = (await response.json()) as { error?: { kind: string } };
      answers.push({ status: response.status, kind: body.error?.kind ?? 'none' });
    });
    await Promise.all(batch);
  }
  proxy.forget();
  // Reads go on past an answer given late; they must end, all of them.
  await vi.waitFor(() => expect(proxy.stats().gate).toMatchObject({ active: 0, queued: 0 }), {
    timeout: 10_000,
  });
  return answers;
}

// Thousands of requests: generous bounds for a busy machine (the heap's took 70 s at load 20
// on 2 cores); nothing here measures speed.
describe('upstream faults, repeated', { timeout: 300_000 }, () => {
  const cases = faults.map(([name, answer, status, kind]) => [name, status, kind, answer] as const);
  it.each(cases)('upstream %s → %i %s every time', async (_name, status, kind, answer) => {
    const timeoutMs = kind === 'timeout' ? HANG_TIMEOUT_MS : TIMEOUT_MS;
    const answers = await soak(await faultyProxy(answer, timeoutMs), ROUNDS);
    expect(answers).toHaveLength(ROUNDS);
    expect(answers.filter((a) => a.status !== status || a.kind !== kind)).toEqual([]);
  });

  it('keeps the heap flat across thousands of failed requests', async () => {
    const gc = findGc();
    // Without a collection before each reading, the heap says nothing about a leak.
    if (!gc) throw new Error('Cannot measure the heap: no gc (run node with --expose-gc).');
    const requests = HEAP_REPEATS * faults.length * ROUNDS;
    // Too few requests for the bound: a leak of LEAK_BYTES each would pass unseen.
    expect(requests * LEAK_BYTES, 'requests enough to show the leak').toBeGreaterThan(HEAP_BOUND);
    // One server per fault for the whole run, as in production: what a failed request
    // leaves behind adds up in it.
    const proxies: Proxy[] = [];
    for (const [, answer, , kind] of faults) {
      proxies.push(await faultyProxy(answer, kind === 'timeout' ? HANG_TIMEOUT_MS : TIMEOUT_MS));
    }
    let repeat = 0;
    const all = async () => {
      const first = ROUNDS * repeat++;
      await Promise.all(proxies.map((proxy) => soak(proxy, ROUNDS, first)));
    };
    await all(); // warm-up: code, JIT and pools settle
    gc();
    gc();
    const before = process.memoryUsage().heapUsed;
    for (let i = 0; i < HEAP_REPEATS; i += 1) await all();
    gc();
    gc();
    const growth = process.memoryUsage().heapUsed - before;
    console.info(`heap growth over ${requests} failed requests: ${(growth / 1e6).toFixed(2)} MB`);
    expect(growth).toBeLessThan(HEAP_BOUND);
  });
});
