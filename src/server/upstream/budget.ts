import type pg from 'pg';
import {
  RateLimiterMemory,
  RateLimiterPostgres,
  RateLimiterRes,
  type RateLimiterAbstract,
} from 'rate-limiter-flexible';

/**
 * The upstream's request rate, as one budget for every server sharing the key: in memory
 * for a single server, in PostgreSQL when several share a database. One request per
 * `1 / ratePerSecond` seconds, each window opened by the request that takes it: requests
 * are never closer than that, so at most `ratePerSecond` fall in any second, and the
 * service's own bucket (5 a second, burst 2 on the basic plan) never has to refuse one.
 */
export interface UpstreamBudget {
  /** 0 when a request may go now (and is counted), else how many ms until one may. */
  take(): Promise<number>;
}

/** The table rate-limiter-flexible keeps its counters in; made by database/migrations.ts. */
export const BUDGET_TABLE = 'upstream_budget';
const KEY = 'upstream';

export function createUpstreamBudget(ratePerSecond: number, pool?: pg.Pool): UpstreamBudget {
  if (ratePerSecond <= 0) return { take: async () => 0 };
  const options = { points: 1, duration: 1 / ratePerSecond, keyPrefix: 'budget' };
  const limiter: RateLimiterAbstract = pool
    ? new RateLimiterPostgres({
        ...options,
        storeClient: pool,
        storeType: 'pool',
        tableName: BUDGET_TABLE,
        tableCreated: true,
      })
    : new RateLimiterMemory(options);
  return {
    async take() {
      try {
        await limiter.consume(KEY);
        return 0;
      } catch (refusal) {
        if (refusal instanceof RateLimiterRes) return Math.max(1, refusal.msBeforeNext);
        // The database failed: wait a moment rather than send past the budget.
        return 1000 / ratePerSecond;
      }
    },
  };
}
