import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { createProxy } from '../../../src/server/proxy/app';
import { fakeUpstream } from './fake-upstream';

/**
 * Each upstream fault, many times over: every answer must be the right JSON error within
 * the deadline, and nothing may pile up (in-flight requests, queue, heap).
 */
const ROUNDS = 300;
const BATCH = 50;
const TIMEOUT_MS = 25;
const A = '0x' + '0'.repeat(60) + 'abcd';
// The heap check: a leak of LEAK_BYTES per request, over every fault HEAP_REPEATS times,
// grows the heap past HEAP_BOUND; what a run leaves in pools and caches stays below it.
const HEAP_REPEATS = 12;
const LEAK_BYTES = 300;
const HEAP_BOUND = 8 * 1024 * 1024;

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

/** A gc we can call: the global one under --expose-gc, else one switched on at runtime. */
function findGc(): (() => void) | undefined {
  const exposed = (globalThis as { gc?: () => void }).gc;
  if (exposed) return exposed;
  try {
    setFlagsFromString('--expose-gc');
    return runInNewContext('gc') as () => void;
  } catch {
    return undefined;
  }
}

async function soak(answer: () => Response | Promise<Response>, rounds: number) {
  const { upstream } = fakeUpstream(answer);
  const proxy = createProxy({
    upstream,
    timeoutMs: TIMEOUT_MS,
    rateLimit: { perMinute: 0, burst: 1 },
    gate: { concurrency: BATCH, queueTimeoutMs: 5_000, ratePerSecond: 0 },
  });
  const answers: Array<{ status: number; kind: string }> = [];
  for (let start = 0; start < rounds; start += BATCH) {
    const batch = Array.from({ length: Math.min(BATCH, rounds - start) }, async (_, i) => {
      // Distinct pages: coalescing must not hide a leak per request.
      const response = await proxy.app.request(`/api/v1/events/${A}?cursor=p${start + i}`);
      const body = (await response.json()) as { error?: { kind: string } };
      answers.push({ status: response.status, kind: body.error?.kind ?? 'none' });
    });
    await Promise.all(batch);
  }
  return { answers, stats: proxy.stats() };
}

// Thousands of requests: generous bounds for a busy machine; nothing here measures speed.
describe('upstream faults, repeated', { timeout: 60_000 }, () => {
  const cases = faults.map(([name, answer, status, kind]) => [name, status, kind, answer] as const);
  it.each(cases)('upstream %s → %i %s every time', async (_name, status, kind, answer) => {
    const { answers, stats } = await soak(answer, ROUNDS);
    expect(answers).toHaveLength(ROUNDS);
    expect(answers.filter((a) => a.status !== status || a.kind !== kind)).toEqual([]);
    expect(stats.pages).toEqual({ entries: 0, bytes: 0, inFlight: 0 });
    expect(stats.gate).toMatchObject({ active: 0, queued: 0 });
  });

  it('keeps the heap flat across thousands of failed requests', async () => {
    const gc = findGc();
    // Without a collection before each reading, the heap says nothing about a leak.
    if (!gc) throw new Error('Cannot measure the heap: no gc (run node with --expose-gc).');
    const requests = HEAP_REPEATS * faults.length * ROUNDS;
    // Too few requests for the bound: a leak of LEAK_BYTES each would pass unseen.
    expect(requests * LEAK_BYTES, 'requests enough to show the leak').toBeGreaterThan(HEAP_BOUND);
    const all = () => Promise.all(faults.map(([, answer]) => soak(answer, ROUNDS)));
    await all(); // warm-up: code, JIT and pools settle
    gc();
    gc();
    const before = process.memoryUsage().heapUsed;
    for (let i = 0; i < HEAP_REPEATS; i += 1) await all();
    gc();
    gc();
    const growth = process.memoryUsage().heapUsed - before;
    console.info(`heap growth over ${requests} failed requests: ${(growth / 1e6).toFixed(1)} MB`);
    expect(growth).toBeLessThan(HEAP_BOUND);
  });
});
