export interface RateLimitSettings {
  /** Sustained requests per minute per client; 0 turns the limit off. */
  perMinute: number;
  /** Requests a client may make at once before the sustained rate applies. */
  burst: number;
  /** Clients tracked at most; memory stays bounded whatever the number of addresses. */
  maxClients?: number;
}

export const DEFAULT_RATE_LIMIT: RateLimitSettings = { perMinute: 300, burst: 60 };
const DEFAULT_MAX_CLIENTS = 50_000;

interface Bucket {
  tokens: number;
  updatedAt: number;
}

/**
 * A token bucket per client. The map is kept in least-recently-used order, so buckets
 * idle long enough to be full again (indistinguishable from a new client) are dropped
 * from its front in constant time per request, and a flood of new addresses evicts the
 * least recent client rather than growing the map.
 *
 * `take` spends one token before a request; `charge` spends more once its cost is known
 * (the server's time, see http/client-share.ts), and may leave the bucket in debt, down
 * to minus its burst: the client then waits until the debt is paid back.
 */
export function createRateLimiter(settings: RateLimitSettings, now: () => number = Date.now) {
  const { perMinute, burst, maxClients = DEFAULT_MAX_CLIENTS } = settings;
  const perMs = perMinute / 60_000;
  const buckets = new Map<string, Bucket>();

  const dropIdle = (time: number) => {
    for (const [client, bucket] of buckets) {
      const full = bucket.tokens + (time - bucket.updatedAt) * perMs >= burst;
      if (!full && buckets.size < maxClients) break;
      buckets.delete(client);
    }
  };
  /** The client's bucket filled up to now, moved to the map's most recent end. */
  const refilled = (client: string, time: number) => {
    const bucket = buckets.get(client) ?? { tokens: burst, updatedAt: time };
    // Out of the map while the others are looked at: the room it takes is kept for it.
    buckets.delete(client);
    dropIdle(time);
    bucket.tokens = Math.min(burst, bucket.tokens + (time - bucket.updatedAt) * perMs);
    bucket.updatedAt = time;
    buckets.set(client, bucket);
    return bucket;
  };

  return {
    /** 0 when the request may go ahead, else the seconds until the client may retry. */
    take(client: string): number {
      const bucket = refilled(client, now());
      if (bucket.tokens >= 1) {
        bucket.tokens -= 1;
        return 0;
      }
      return Math.max(1, Math.ceil((1 - bucket.tokens) / perMs / 1000));
    },
    /** Spends `points` more of the client's tokens, down to minus the burst at most. */
    charge(client: string, points: number): void {
      const bucket = refilled(client, now());
      bucket.tokens = Math.max(-burst, bucket.tokens - points);
    },
    clients: () => buckets.size,
  };
}

export type RateLimiter = ReturnType<typeof createRateLimiter>;
