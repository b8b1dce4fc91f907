export interface UpstreamGateSettings {
  /** Upstream requests in flight at most. */
  concurrency: number;
  /** How long a request may wait for its turn before it is answered "busy". */
  queueTimeoutMs: number;
  /** Requests per second sent upstream at most; 0 means no cap. */
  ratePerSecond: number;
  /** Requests that may start at once under the rate cap. */
  rateBurst: number;
  /** Waiting requests at most; more are answered "busy" at once. */
  maxQueue?: number;
}

export const DEFAULT_GATE: UpstreamGateSettings = {
  concurrency: 4,
  queueTimeoutMs: 10_000,
  ratePerSecond: 0,
  rateBurst: 2,
};
const DEFAULT_MAX_QUEUE = 1000;
// Cool-down after a 429 without Retry-After: 1 s, doubling while 429s continue.
const BACKOFF_INITIAL_MS = 1000;
const BACKOFF_MAX_MS = 60_000;

export type GateEntry =
  | { kind: 'admitted'; release: () => void }
  | { kind: 'busy' }
  | { kind: 'throttled'; retryAfterSeconds: number }
  | { kind: 'aborted' };

interface Waiter {
  deadline: number;
  settle: (entry: GateEntry) => void;
}

/**
 * The one door to the upstream, shared by every visitor: a bound on concurrent
 * requests with a FIFO queue, an optional request-rate cap (the real service's basic
 * plan allows 5 requests/s), and a shared cool-down when the upstream answers 429. One
 * throttled answer slows everyone down, so a crowd of visitors cannot turn it into a
 * crowd of retries. Requests that cannot start before their deadline are answered at
 * once instead of holding a place in the queue.
 */
export function createUpstreamGate(settings: UpstreamGateSettings, now: () => number = Date.now) {
  const { concurrency, queueTimeoutMs, ratePerSecond, rateBurst } = settings;
  const maxQueue = settings.maxQueue ?? DEFAULT_MAX_QUEUE;
  const perMs = ratePerSecond / 1000;
  const queue: Waiter[] = [];
  let active = 0;
  let tokens = rateBurst;
  let refilledAt = now();
  let coolUntil = 0;
  let strikes = 0;
  let wakeTimer: ReturnType<typeof setTimeout> | undefined;

  const throttled = (time: number): GateEntry => ({
    kind: 'throttled',
    retryAfterSeconds: Math.max(1, Math.ceil((coolUntil - time) / 1000)),
  });

  const wakeIn = (ms: number) => {
    wakeTimer = setTimeout(pump, Math.max(1, Math.ceil(ms)));
  };

  function pump() {
    clearTimeout(wakeTimer);
    wakeTimer = undefined;
    while (queue.length > 0 && active < concurrency) {
      const time = now();
      if (time < coolUntil) return wakeIn(coolUntil - time);
      if (perMs > 0) {
        tokens = Math.min(rateBurst, tokens + (time - refilledAt) * perMs);
        refilledAt = time;
        if (tokens < 1) return wakeIn((1 - tokens) / perMs);
        tokens -= 1;
      }
      active += 1;
      let released = false;
      queue.shift()?.settle({
        kind: 'admitted',
        release: () => {
          if (released) return;
          released = true;
          active -= 1;
          pump();
        },
      });
    }
  }

  return {
    /** Waits for a turn; the caller must `release()` an admitted entry when done. */
    enter(signal?: AbortSignal): Promise<GateEntry> {
      const time = now();
      if (signal?.aborted) return Promise.resolve({ kind: 'aborted' });
      if (coolUntil > time + queueTimeoutMs) return Promise.resolve(throttled(time));
      if (queue.length >= maxQueue) return Promise.resolve({ kind: 'busy' });
      return new Promise<GateEntry>((resolve) => {
        const leave = () => {
          const index = queue.indexOf(waiter);
          if (index >= 0) queue.splice(index, 1);
        };
        const onAbort = () => waiter.settle({ kind: 'aborted' });
        const timer = setTimeout(() => {
          const at = now();
          waiter.settle(at < coolUntil ? throttled(at) : { kind: 'busy' });
        }, queueTimeoutMs);
        const waiter: Waiter = {
          deadline: time + queueTimeoutMs,
          settle: (entry) => {
            clearTimeout(timer);
            signal?.removeEventListener('abort', onAbort);
            leave();
            resolve(entry);
          },
        };
        signal?.addEventListener('abort', onAbort, { once: true });
        queue.push(waiter);
        pump();
      });
    },

    /** The upstream answered 429: everyone waits, for Retry-After or a growing backoff. */
    reportThrottled(retryAfterSeconds?: number) {
      const time = now();
      // 429s of requests already in flight when the first arrived are one event, not several.
      if (time >= coolUntil) strikes += 1;
      const backoff = Math.min(BACKOFF_INITIAL_MS * 2 ** (strikes - 1), BACKOFF_MAX_MS);
      const delay =
        retryAfterSeconds === undefined
          ? backoff
          : Math.max(retryAfterSeconds * 1000, BACKOFF_INITIAL_MS);
      coolUntil = Math.max(coolUntil, time + delay);
      for (const waiter of [...queue]) {
        if (waiter.deadline < coolUntil) waiter.settle(throttled(time));
      }
      pump();
    },

    reportSuccess() {
      strikes = 0;
    },

    stats: () => ({
      active,
      queued: queue.length,
      coolingDownMs: Math.max(0, coolUntil - now()),
    }),
  };
}

export type UpstreamGate = ReturnType<typeof createUpstreamGate>;
