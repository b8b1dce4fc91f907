import { afterEach, describe, expect, it, vi } from 'vitest';
import { createMonitoring } from '../../../src/server/monitoring';
import type { StoreEngine } from '../../../src/server/store/engine';

const HOUR_MS = 3_600_000;
const JUNE_1 = Date.UTC(2026, 5, 1);

/** The usage part of an engine, counting its writes; the rest is never called here. */
function usageEngine() {
  const usage = new Map<number, number>();
  let writes = 0;
  const engine = {
    async addUsage(hour: number, requests: number) {
      writes += 1;
      usage.set(hour, (usage.get(hour) ?? 0) + requests);
    },
    async usageSince(hour: number) {
      let total = 0;
      for (const [at, count] of usage) if (at >= hour) total += count;
      return total;
    },
    async stats() {
      return { lists: 0, bytes: 0 };
    },
  } as unknown as StoreEngine;
  return { engine, usage, writes: () => writes };
}

async function gauge(monitoring: ReturnType<typeof createMonitoring>, name: string) {
  const metric = await monitoring.registry.getSingleMetric(name)!.get();
  return metric.values[0]?.value;
}

const request = { status: 200, durationMs: 80 };

describe('upstream usage and the monthly quota', () => {
  it('counts every request for the hour and the month, in the store once a second at most', async () => {
    const clock = { now: JUNE_1 + 5 * HOUR_MS };
    const store = usageEngine();
    store.usage.set(Math.floor(JUNE_1 / HOUR_MS), 7); // earlier this month, by another server
    const monitoring = createMonitoring({
      engine: store.engine,
      monthlyQuota: 0,
      now: () => clock.now,
    });
    for (let n = 0; n < 100; n++) monitoring.upstreamRequest(request);
    // Shown at once, though not yet written.
    expect(await gauge(monitoring, 'upstream_requests_this_hour')).toBe(100);
    expect(await gauge(monitoring, 'upstream_requests_this_month')).toBe(107);
    expect(store.writes()).toBe(0);
    await monitoring.flush();
    // A hundred requests, one write.
    expect(store.writes()).toBe(1);
    expect(await store.engine.usageSince(Math.floor(clock.now / HOUR_MS))).toBe(100);
    expect(await gauge(monitoring, 'upstream_requests_this_month')).toBe(107);
  });

  afterEach(() => {
    vi.useRealTimers();
  });

  it('writes on its own within a second', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const store = usageEngine();
    const monitoring = createMonitoring({ engine: store.engine, monthlyQuota: 0 });
    monitoring.upstreamRequest(request);
    monitoring.upstreamRequest(request);
    await vi.advanceTimersByTimeAsync(999);
    expect(store.writes()).toBe(0);
    await vi.advanceTimersByTimeAsync(1);
    expect(store.writes()).toBe(1);
    expect(await store.engine.usageSince(0)).toBe(2);
  });

  it('warns once a month when 80% of the quota is spent', async () => {
    const clock = { now: JUNE_1 + 2 * HOUR_MS };
    const store = usageEngine();
    store.usage.set(Math.floor(JUNE_1 / HOUR_MS), 78);
    const warnings: string[] = [];
    const monitoring = createMonitoring({
      engine: store.engine,
      monthlyQuota: 100,
      warn: (message) => warnings.push(message),
      now: () => clock.now,
    });
    monitoring.upstreamRequest(request);
    await monitoring.flush();
    expect(warnings).toEqual([]); // 79 of 100

    clock.now += 61_000;
    monitoring.upstreamRequest(request);
    await monitoring.flush();
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain('80 of 100 requests (80%)');

    clock.now += 61_000;
    monitoring.upstreamRequest(request);
    await monitoring.flush();
    expect(warnings).toHaveLength(1); // not again this month

    clock.now = Date.UTC(2026, 6, 1, 3);
    store.usage.set(Math.floor(clock.now / HOUR_MS), 85);
    monitoring.upstreamRequest(request);
    await monitoring.flush();
    expect(warnings).toHaveLength(2);
    expect(warnings[1]).toContain('86 of 100 requests (86%)');
  });
});
