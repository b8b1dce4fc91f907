import { createUpstreamBudget, type UpstreamBudget } from './budget';

export interface UpstreamGateSettings {
  /** Upstream requests in flight at most. */
  concurrency: number;
  /** How long a request may wait for its turn before it is answered "busy". */
  queueTimeoutMs: number;
  /** Requests per second sent upstream at most; 0 means no cap. */
  ratePerSecond: number;
  /**
   * Where that rate is counted: this process's memory unless given (a budget kept in
   * PostgreSQL is one for every server sharing it).
   */
  budget?: UpstreamBudget;
  /** Longest cool-down after a 429, whatever its `Retry-After` says. */
  maxCoolDownMs?: number;
  /**
   * Share of the in-flight places one client may hold while other clients wait (0–1];
   * waiting clients are served in turn whatever it is.
   */
  clientShare?: number;
  /** Waiting requests at most; more are answered "busy" at once. */
  maxQueue?: number;
}

export const DEFAULT_GATE = {
  concurrency: 4,
  queueTimeoutMs: 10_000,
  ratePerSecond: 0,
  maxCoolDownMs: 60_000,
  clientShare: 0.5,
} satisfies UpstreamGateSettings;
const DEFAULT_MAX_QUEUE = 1000;
// Cool-down after a 429 without Retry-After: 1 s, doubling while 429s continue.
const BACKOFF_INITIAL_MS = 1000;
// During a cool-down, one request is let through this often to see whether it is over.
export const PROBE_INTERVAL_MS = 10_000;

export type GateEntry =
  | { kind: 'admitted'; release: () => void }
  | { kind: 'busy' }
  | { kind: 'throttled'; retryAfterSeconds: number }
  | { kind: 'aborted' };

export interface GateStats {
  active: number;
  queued: number;
  /** Clients with requests waiting. */
  clientsWaiting: number;
  coolingDownMs: number;
  /** When the cool-down after a 429 ends (epoch ms), while there is one. */
  coolingDownUntil?: number;
}

/**
 * The one door to the upstream, as the page reader uses it (servers that share a store
 * share its rate through `budget`; the rest of the gate is each server's own):
 * - `enter(client, signal)` waits for a turn of `client` (a key per visitor, from
 *   `clientAddress`) and settles once: admitted (call `release()` exactly once when the
 *   upstream call is over, whatever its outcome), busy (no turn within the queue
 *   timeout), throttled (a cool-down outlasts the wait), or aborted (`signal` fired);
 * - `reportThrottled(seconds?)` after an upstream 429, with its `Retry-After`;
 * - `reportSuccess()` after any other upstream answer;
 * - `stats()` for readiness and monitoring.
 */
export interface UpstreamGate {
  enter(client: string, signal?: AbortSignal): Promise<GateEntry>;
  reportThrottled(retryAfterSeconds?: number): void;
  reportSuccess(): void;
  stats(): GateStats;
}

interface Waiter {
  client: string;
  deadline: number;
  settle: (entry: GateEntry) => void;
}

/**
 * The door to the upstream, shared by every visitor: a bound on concurrent requests, the
 * request rate (the real service's basic plan allows 5 requests/s; see budget.ts, which
 * several servers can share), and a shared cool-down when the upstream answers 429.
 *
 * Fair share: each client waits in a queue of its own and the queues are served in turn,
 * so a client with a thousand cache misses waiting delays another client's next request
 * by one turn, not by a thousand; while others wait, no client holds more than
 * `clientShare` of the in-flight places.
 *
 * One throttled answer slows everyone down, so a crowd of visitors cannot turn it into a
 * crowd of retries. The cool-down is capped (`maxCoolDownMs`, whatever `Retry-After`
 * asks), and during it one request arriving at least `PROBE_INTERVAL_MS` after the last
 * probe is let through as a probe: any success ends the cool-down. Requests that cannot
 * start before their deadline are answered at once instead of holding a place.
 */
export function createUpstreamGate(
  settings: UpstreamGateSettings,
  now: () => number = Date.now,
): UpstreamGate {
  const { concurrency, queueTimeoutMs, ratePerSecond } = settings;
  const budget =
    settings.budget ?? (ratePerSecond > 0 ? createUpstreamBudget(ratePerSecond) : undefined);
  const maxQueue = settings.maxQueue ?? DEFAULT_MAX_QUEUE;
  const maxCoolDownMs = settings.maxCoolDownMs ?? DEFAULT_GATE.maxCoolDownMs;
  const share = Math.max(
    1,
    Math.floor(concurrency * (settings.clientShare ?? DEFAULT_GATE.clientShare)),
  );
  // Waiting requests by client; the map's order is the order of turns.
  const queues = new Map<string, Waiter[]>();
  const activeBy = new Map<string, number>();
  let queued = 0;
  let active = 0;
  // A turn of the budget is being asked for: one at a time.
  let taking = false;
  let coolUntil = 0;
  let strikes = 0;
  let nextProbeAt = 0;
  let probing = false;
  let wakeTimer: ReturnType<typeof setTimeout> | undefined;

  const throttled = (time: number): GateEntry => ({
    kind: 'throttled',
    retryAfterSeconds: Math.max(1, Math.ceil((coolUntil - time) / 1000)),
  });
  const probeDue = (time: number) => !probing && time >= nextProbeAt;

  const wakeIn = (ms: number) => {
    wakeTimer = setTimeout(pump, Math.max(1, Math.ceil(ms)));
  };

  const remove = (waiter: Waiter) => {
    const queue = queues.get(waiter.client);
    const index = queue?.indexOf(waiter) ?? -1;
    if (!queue || index < 0) return;
    queue.splice(index, 1);
    queued -= 1;
    if (queue.length === 0) queues.delete(waiter.client);
  };

  /** The next client in turn, passing over those at their share while others wait. */
  const nextWaiter = (): Waiter | undefined => {
    let first: Waiter | undefined;
    for (const queue of queues.values()) {
      const waiter = queue[0];
      first ??= waiter;
      if (waiter && (activeBy.get(waiter.client) ?? 0) < share) return waiter;
    }
    return first;
  };

  const admit = (waiter: Waiter, probe: boolean) => {
    const { client } = waiter;
    remove(waiter);
    // Served: this client's turn moves to the back.
    const queue = queues.get(client);
    if (queue) {
      queues.delete(client);
      queues.set(client, queue);
    }
    active += 1;
    activeBy.set(client, (activeBy.get(client) ?? 0) + 1);
    if (probe) {
      probing = true;
      nextProbeAt = now() + PROBE_INTERVAL_MS;
    }
    let released = false;
    waiter.settle({
      kind: 'admitted',
      release: () => {
        if (released) return;
        released = true;
        active -= 1;
        const left = (activeBy.get(client) ?? 1) - 1;
        if (left > 0) activeBy.set(client, left);
        else activeBy.delete(client);
        if (probe) probing = false;
        pump();
      },
    });
  };

  function pump() {
    clearTimeout(wakeTimer);
    wakeTimer = undefined;
    while (queued > 0 && active < concurrency) {
      const time = now();
      const cooling = time < coolUntil;
      if (cooling && !probeDue(time)) {
        return wakeIn((probing ? coolUntil : Math.min(coolUntil, nextProbeAt)) - time);
      }
      if (budget) return takeTurn();
      const waiter = nextWaiter();
      if (!waiter) return;
      admit(waiter, cooling);
    }
  }

  /** Asks the budget for a request's turn; admits the next waiter once it is given. */
  function takeTurn() {
    if (taking) return;
    taking = true;
    budget!.take().then(
      (waitMs) => {
        taking = false;
        if (waitMs > 0) return wakeIn(waitMs);
        // Whoever is next now (the one asked for may have left meanwhile) goes.
        const waiter = active < concurrency ? nextWaiter() : undefined;
        if (waiter) admit(waiter, now() < coolUntil);
        pump();
      },
      () => {
        taking = false;
        wakeIn(1000);
      },
    );
  }

  /** Makes room in a full queue by turning away the newest request of the longest queue. */
  const makeRoomFor = (client: string): boolean => {
    let longest: Waiter[] | undefined;
    for (const queue of queues.values()) if (queue.length > (longest?.length ?? 0)) longest = queue;
    const own = queues.get(client)?.length ?? 0;
    const newest = longest?.[longest.length - 1];
    if (!newest || newest.client === client || longest!.length <= own + 1) return false;
    newest.settle({ kind: 'busy' });
    return true;
  };

  return {
    enter(client, signal) {
      const time = now();
      if (signal?.aborted) return Promise.resolve({ kind: 'aborted' });
      const deadline = time + queueTimeoutMs;
      // A cool-down outlasting the wait is answered now, unless this request can be its probe.
      if (time < coolUntil && deadline < coolUntil && !probeDue(time)) {
        return Promise.resolve(throttled(time));
      }
      if (queued >= maxQueue && !makeRoomFor(client)) return Promise.resolve({ kind: 'busy' });
      return new Promise<GateEntry>((resolve) => {
        const onAbort = () => waiter.settle({ kind: 'aborted' });
        const timer = setTimeout(() => {
          const at = now();
          waiter.settle(at < coolUntil ? throttled(at) : { kind: 'busy' });
        }, queueTimeoutMs);
        const waiter: Waiter = {
          client,
          deadline,
          settle: (entry) => {
            clearTimeout(timer);
            signal?.removeEventListener('abort', onAbort);
            remove(waiter);
            resolve(entry);
          },
        };
        signal?.addEventListener('abort', onAbort, { once: true });
        const queue = queues.get(client);
        if (queue) queue.push(waiter);
        else queues.set(client, [waiter]);
        queued += 1;
        pump();
      });
    },

    reportThrottled(retryAfterSeconds) {
      const time = now();
      // 429s of requests already in flight when the first arrived are one event, not several.
      if (time >= coolUntil) strikes += 1;
      const backoff = BACKOFF_INITIAL_MS * 2 ** Math.min(strikes - 1, 30);
      const asked =
        retryAfterSeconds === undefined
          ? backoff
          : Math.max(retryAfterSeconds * 1000, BACKOFF_INITIAL_MS);
      coolUntil = Math.max(coolUntil, time + Math.min(asked, maxCoolDownMs));
      nextProbeAt = Math.max(nextProbeAt, time + PROBE_INTERVAL_MS);
      // Those who cannot outwait the cool-down are answered now.
      for (const queue of [...queues.values()]) {
        for (const waiter of [...queue]) {
          if (waiter.deadline < coolUntil) waiter.settle(throttled(time));
        }
      }
      pump();
    },

    reportSuccess() {
      strikes = 0;
      // The upstream answers again: a cool-down still running is over.
      if (coolUntil > now()) {
        coolUntil = 0;
        pump();
      }
    },

    stats() {
      const time = now();
      return {
        active,
        queued,
        clientsWaiting: queues.size,
        coolingDownMs: Math.max(0, coolUntil - time),
        ...(coolUntil > time && { coolingDownUntil: coolUntil }),
      };
    },
  };
}
