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
 */
export function createRateLimiter(settings: RateLimitSettings, now: () => number = Date.now) {
  const { perMinute, burst, maxClients = DEFAULT_MAX_CLIENTS } = settings;
  const perMs = perMinute / 60_000;
  const refillMs = burst / perMs;
  const buckets = new Map<string, Bucket>();

  const dropIdle = (time: number) => {
    for (const [client, bucket] of buckets) {
      if (time - bucket.updatedAt < refillMs && buckets.size <= maxClients) break;
      buckets.delete(client);
    }
  };

  return {
    /** 0 when the request may go ahead, else the seconds until the client may retry. */
    take(client: string): number {
      const time = now();
      const bucket = buckets.get(client) ?? { tokens: burst, updatedAt: time };
      buckets.delete(client);
      bucket.tokens = Math.min(burst, bucket.tokens + (time - bucket.updatedAt) * perMs);
      bucket.updatedAt = time;
      buckets.set(client, bucket);
      dropIdle(time);
      if (bucket.tokens >= 1) {
        bucket.tokens -= 1;
        return 0;
      }
      return Math.max(1, Math.ceil((1 - bucket.tokens) / perMs / 1000));
    },
    clients: () => buckets.size,
  };
}

export type RateLimiter = ReturnType<typeof createRateLimiter>;
