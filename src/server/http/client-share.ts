import { availableParallelism } from 'node:os';
import type { MiddlewareHandler } from 'hono';
import { clientAddress } from '../proxy/client-address';
import type { ClientVariables } from '../proxy/client-rate-limit';
import { errorResponse } from '../proxy/error-response';
import { createRateLimiter } from '../proxy/rate-limit';
import { createFairLane, type FairLane } from './fair-lane';
import { createRecentUse } from './recent-use';
import { withTurn, type HeldTurn } from './turn-context';
import { createRequestCosts, requestKind } from './request-costs';
import { createLoadMeter } from './server-load';

export interface ClientShareSettings {
  /** Milliseconds of the server's time a client earns a second (0: no budget). */
  costPerSecondMs: number;
  /** Milliseconds of the server's time a client may bank, and owe at most. */
  costBurstMs: number;
  /** Costly requests served at once, from every client together (0: no bound). */
  costlyAtOnce: number;
  /** Requests of any kind answered at once, from every client together (0: no bound). */
  atOnce: number;
  /** Requests one client may have in flight at once (0: no bound). */
  inFlightPerClient: number;
}

export const DEFAULT_CLIENT_SHARE: ClientShareSettings = {
  costPerSecondMs: 1_000,
  costBurstMs: 30_000,
  costlyAtOnce: 2,
  // As many as the machine has cores: sixteen series at once made each wait for all.
  atOnce: Math.max(2, availableParallelism()),
  inFlightPerClient: 12,
};

/** A kind of request whose answers lately took this long is costly (see request-costs.ts). */
export const COSTLY_MS = 100;
/** How fast a client's use of the server is forgotten, for the order of turns. */
const RECENT_USE_HALF_LIFE_MS = 5_000;
/** How long a costly request may wait for its turn before it is answered 503. */
const TURN_TIMEOUT_MS = 30_000;

/** What the middleware needs of Node's response object, when it runs on Node. */
interface NodeOutgoing {
  once(event: 'close', listener: () => void): unknown;
  readonly closed?: boolean;
}

/**
 * Each client's share of the server, by the time its requests take rather than by their
 * number: an export or a long series weighs a hundred pages.
 *
 * - At most `inFlightPerClient` requests of one client at once; past it, 429 at once, so
 *   one address cannot hold the server's connections and database with waiting requests.
 * - A budget of server milliseconds per client (a token bucket: `costPerSecondMs` a
 *   second, `costBurstMs` banked): each request is charged its share of the server's
 *   time from its turn to its last byte sent (a streamed export all of it: its duration
 *   over the requests running meanwhile, server-load.ts), and a client in debt is
 *   answered 429 with the seconds until it is paid back.
 * - Costly requests (of a kind whose share lately came to `COSTLY_MS` or more) run `costlyAtOnce`
 *   at a time, the slots shared fairly between clients (fair-lane.ts): many addresses
 *   asking for exports at once cannot take every core, and a client asking for a quick
 *   page never waits behind them.
 * - Every request (files of the app aside) is answered `atOnce` at a time, the turns
 *   shared the same way: sixteen clients asking for series back to back, each under the
 *   costly mark, would otherwise hold every database connection, and a quiet client's
 *   page would wait in the pool's line behind all of them. Here it takes the next turn
 *   that frees, ahead of every client with a request running. A turn is held until the
 *   handler returns (a streamed export's reading goes on under the costly bound and the
 *   export limits), so readers that never read hold no turn.
 *
 * Requests without a socket (the app called in-process) have no client and no share.
 */
export function clientShare(
  settings: ClientShareSettings,
  trustedProxyHops: number,
  now: () => number = () => performance.now(),
) {
  const { costPerSecondMs, costBurstMs, costlyAtOnce, atOnce, inFlightPerClient } = settings;
  const budget =
    costPerSecondMs > 0
      ? createRateLimiter({ perMinute: costPerSecondMs * 60, burst: costBurstMs }, now)
      : undefined;
  const recent = createRecentUse(RECENT_USE_HALF_LIFE_MS);
  const used = (client: string) => recent.of(client, now());
  const lane = costlyAtOnce > 0 ? createFairLane(costlyAtOnce, used) : undefined;
  const turns = atOnce > 0 ? createFairLane(atOnce, used) : undefined;
  const costs = createRequestCosts(COSTLY_MS);
  const load = createLoadMeter(now);
  const inFlight = new Map<string, number>();

  const middleware: MiddlewareHandler<{ Variables: ClientVariables }> = async (c, next) => {
    const client = clientAddress(c, trustedProxyHops);
    if (client === undefined) return next();
    const held = inFlight.get(client) ?? 0;
    if (inFlightPerClient > 0 && held >= inFlightPerClient) {
      c.set('route', 'too-many-at-once');
      return errorResponse({
        kind: 'client_rate_limited',
        status: 429,
        message: `This dashboard answers each address ${inFlightPerClient} requests at a time, and yours has that many waiting: ask again once they are answered.`,
        retryAfterSeconds: 1,
      });
    }
    const retryAfter = budget?.take(client) ?? 0;
    if (retryAfter > 0) {
      c.set('route', 'over-budget');
      return errorResponse({
        kind: 'client_rate_limited',
        status: 429,
        message:
          'This dashboard gives each address a share of its time, and yours has spent it on costly requests (exports, long series).',
        retryAfterSeconds: retryAfter,
      });
    }

    inFlight.set(client, held + 1);
    const outgoing = (c.env as { outgoing?: NodeOutgoing } | undefined)?.outgoing;
    const gone = new AbortController();
    outgoing?.once('close', () => gone.abort());
    const kind = requestKind(c.req.path);
    const waitFor = (which: FairLane) =>
      which.turn(client, AbortSignal.any([gone.signal, AbortSignal.timeout(TURN_TIMEOUT_MS)]));
    const release = lane && costs.costly(kind) ? await waitFor(lane) : noTurn;
    const takesTurn = turns !== undefined && !c.req.path.startsWith('/assets/');
    let turn = release && takesTurn ? await waitFor(turns) : noTurn;
    if (!release || !turn) {
      release?.();
      leave(client);
      c.set('route', 'busy');
      return errorResponse({
        kind: 'busy',
        status: 503,
        message:
          'The server is busy with other requests (exports, long series). Try again shortly.',
        retryAfterSeconds: 1,
      });
    }
    const end = load.start();
    const done = () => {
      const ms = end();
      budget?.charge(client, ms);
      recent.charge(client, ms, now());
      costs.record(kind, ms);
      release();
      leave(client);
    };
    // While the request waits on the service, its turn is another's (turn-context.ts).
    // Reads run side by side (a walk reads ahead): the first to wait gives the turn back,
    // the last to end takes one again, and it is never held twice. Work left running
    // after the answer (a head read) keeps this context, but has no turn to give or take.
    let answered = false;
    let away = 0;
    const heldTurn: HeldTurn = {
      leave() {
        away += 1;
        turn?.();
        turn = noTurn;
      },
      async back() {
        away -= 1;
        if (!takesTurn || answered || away > 0) return;
        const again = await waitFor(turns);
        if (answered || away > 0 || turn !== noTurn) again?.();
        else turn = again ?? noTurn;
      },
    };
    try {
      await withTurn(heldTurn, next);
    } finally {
      answered = true;
      turn?.();
      // The answer is sent after the handler returns (a stream long after): counted to its end.
      if (!outgoing || gone.signal.aborted) done();
      else outgoing.once('close', done);
    }
  };
  return Object.assign(middleware, {
    stats: () => ({
      clientsInFlight: inFlight.size,
      running: load.running(),
      costly: lane?.stats(),
      turns: turns?.stats(),
    }),
  });

  function noTurn() {}

  function leave(client: string) {
    const left = (inFlight.get(client) ?? 1) - 1;
    if (left === 0) inFlight.delete(client);
    else inFlight.set(client, left);
  }
}
