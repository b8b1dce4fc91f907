import { afterEach, describe, expect, it, vi } from 'vitest';
import { createMonitoring, type MonitoringOptions } from '../../../src/server/monitoring';

const HOUR_MS = 3_600_000;
const JUNE_1 = Date.UTC(2026, 5, 1);

type Engine = MonitoringOptions['engine'];

/** What monitoring reads of the record log, counting usage writes; `stats` as set. */
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
    stats: async (): ReturnType<Engine['stats']> => ({ lists: 0, records: 0, bytes: 0 }),
  } satisfies Engine;
  return { engine: engine as Engine, usage, writes: () => writes };
}

async function gauge(monitoring: ReturnType<typeof createMonitoring>, name: string) {
  const metric = await monitoring.registry.getSingleMetric(name)!.get();
  return metric.values[0]?.value;
}

const request = { status: 200, durationMs: 80 };

describe('upstream usage and the monthly quota', () => {
  it("counts every request for the hour and the month, written at once, a tick's requests together", async () => {
    const clock = { now: JUNE_1 + 5 * HOUR_MS };
    const store = usageEngine();
    store.usage.set(Math.floor(JUNE_1 / HOUR_MS), 7); // earlier this month, by another server
    const monitoring = createMonitoring({
      engine: store.engine,
      monthlyQuota: 0,
      now: () => clock.now,
    });
    const counted = Array.from({ length: 100 }, () => monitoring.upstreamRequest(request));
    // Shown at once, written or not.
    expect(await gauge(monitoring, 'upstream_requests_this_hour')).toBe(100);
    expect(await gauge(monitoring, 'upstream_requests_this_month')).toBe(107);
    await Promise.all(counted);
    // A hundred requests in one tick, one write, done when their promises resolve.
    expect(store.writes()).toBe(1);
    expect(await store.engine.usageSince(Math.floor(clock.now / HOUR_MS))).toBe(100);
    expect(await gauge(monitoring, 'upstream_requests_this_month')).toBe(107);
  });

  it('writes a lone request at once, and those counted during a write with the next', async () => {
    const store = usageEngine();
    const monitoring = createMonitoring({ engine: store.engine, monthlyQuota: 0 });
    await monitoring.upstreamRequest(request);
    expect(store.writes()).toBe(1);
    expect(await store.engine.usageSince(0)).toBe(1);
    // Three while the first write is in flight: one more write for them.
    const first = monitoring.upstreamRequest(request);
    await Promise.resolve();
    await Promise.resolve();
    const later = [1, 2, 3].map(() => monitoring.upstreamRequest(request));
    await Promise.all([first, ...later]);
    expect(store.writes()).toBe(3);
    expect(await store.engine.usageSince(0)).toBe(5);
  });

  it('reads the count exactly while writes are in flight', async () => {
    const store = usageEngine();
    let release = () => {};
    const slowAdd = store.engine.addUsage.bind(store.engine);
    store.engine.addUsage = async (hour, requests) => {
      await new Promise<void>((resolve) => (release = resolve));
      await slowAdd(hour, requests);
    };
    const monitoring = createMonitoring({ engine: store.engine, monthlyQuota: 0 });
    const counted = [monitoring.upstreamRequest(request), monitoring.upstreamRequest(request)];
    await vi.waitFor(() => expect(release).not.toBe(undefined));
    const figure = gauge(monitoring, 'upstream_requests_this_month');
    monitoring.upstreamRequest(request);
    await Promise.resolve();
    release();
    await vi.waitFor(async () => {
      release();
      expect(await Promise.race([figure, 'waiting'])).toBe(3);
    });
    await Promise.all(counted);
  });

  it('keeps the count through a failed write and writes it with the next', async () => {
    const store = usageEngine();
    const warnings: string[] = [];
    const add = store.engine.addUsage.bind(store.engine);
    let down = true;
    store.engine.addUsage = async (hour, requests) => {
      if (down) throw new Error('connection refused');
      await add(hour, requests);
    };
    const monitoring = createMonitoring({
      engine: store.engine,
      monthlyQuota: 0,
      warn: (message) => warnings.push(message),
    });
    await monitoring.upstreamRequest(request);
    await monitoring.upstreamRequest(request);
    expect(warnings).toHaveLength(1); // once while it stays down
    expect(warnings[0]).toContain('connection refused');
    down = false;
    await monitoring.upstreamRequest(request);
    expect(await store.engine.usageSince(0)).toBe(3);
  });

  afterEach(() => {
    vi.useRealTimers();
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

/** Every value of a metric, by its labels (`source=log`), `''` for one without. */
async function values(monitoring: ReturnType<typeof createMonitoring>, name: string) {
  const metric = await monitoring.registry.getSingleMetric(name)!.get();
  return Object.fromEntries(
    metric.values.map((value) => [
      Object.entries(value.labels)
        .map(([label, text]) => `${label}=${text}`)
        .join(','),
      value.value,
    ]),
  );
}

describe('what the record log tells /metrics', () => {
  it('shows its size, read from the log when scraped, and keeps it while the database is down', async () => {
    const store = usageEngine();
    let down = false;
    store.engine.stats = async () => {
      if (down) throw new Error('connection refused');
      return { lists: 7, records: 12_345, bytes: 4_194_304 };
    };
    const monitoring = createMonitoring({ engine: store.engine, monthlyQuota: 0 });
    expect(await gauge(monitoring, 'log_lists')).toBe(7);
    expect(await gauge(monitoring, 'log_records')).toBe(12_345);
    expect(await gauge(monitoring, 'log_bytes')).toBe(4_194_304);
    down = true;
    expect(await gauge(monitoring, 'log_records')).toBe(12_345);
    // The old store's names are gone.
    for (const name of ['store_bytes', 'store_lists', 'store_recoveries_total']) {
      expect(monitoring.registry.getSingleMetric(name)).toBeUndefined();
    }
  });

  it('counts /api/v1 pages by where they came from: the log alone, or with upstream reads', async () => {
    const monitoring = createMonitoring({ engine: usageEngine().engine, monthlyQuota: 0 });
    monitoring.pageServed('log');
    monitoring.pageServed('log');
    monitoring.pageServed('upstream');
    expect(await values(monitoring, 'api_pages_total')).toEqual({
      'source=log': 2,
      'source=upstream': 1,
    });
  });

  it('counts recoveries of dead cursors and the upstream pages they cost', async () => {
    const monitoring = createMonitoring({ engine: usageEngine().engine, monthlyQuota: 0 });
    monitoring.recovered(3);
    monitoring.recovered(1);
    expect(await gauge(monitoring, 'log_recoveries_total')).toBe(2);
    expect(await gauge(monitoring, 'log_recovery_upstream_pages_total')).toBe(4);
  });

  it('counts verification passes, the pages they read and what they found', async () => {
    const monitoring = createMonitoring({ engine: usageEngine().engine, monthlyQuota: 0 });
    expect(await gauge(monitoring, 'log_verification_passes_total')).toBe(0);
    monitoring.verified({ pages: 40, added: 3, changed: 1, removed: 0 });
    monitoring.verified({ pages: 2, added: 0, changed: 0, removed: 5 });
    expect(await gauge(monitoring, 'log_verification_passes_total')).toBe(2);
    expect(await gauge(monitoring, 'log_verification_upstream_pages_total')).toBe(42);
    expect(await values(monitoring, 'log_verification_records_total')).toEqual({
      'finding=added': 3,
      'finding=changed': 1,
      'finding=removed': 5,
    });
    const text = await monitoring.registry.metrics();
    expect(text).toContain('log_verification_records_total{finding="removed"} 5');
  });
});
