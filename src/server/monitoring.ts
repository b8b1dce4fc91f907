import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { StoreEngine } from './store/engine';
import type { UpstreamRequestOutcome } from './upstream/page-read';

/**
 * What an operator watches: the upstream requests spent (per hour and in the month, by
 * every server sharing the store, against the monthly quota, with a warning in the log at
 * 80%), their latency, where pages came from, and the store's size. Served as Prometheus
 * text on `/metrics`.
 */
export interface MonitoringOptions {
  /** Where usage is counted (shared with the other servers when it is PostgreSQL). */
  engine: StoreEngine;
  /** Upstream requests a month the key may make; 0: no quota. */
  monthlyQuota: number;
  warn?: (message: string) => void;
  now?: () => number;
}

/** Where a page served to a browser came from. */
export type PageSource = 'memory' | 'store' | 'upstream';

const HOUR_MS = 3_600_000;
const QUOTA_WARNING_SHARE = 0.8;
// The month's count is read again after this many requests or this long, not on each one.
const CHECK_EVERY_REQUESTS = 50;
const CHECK_EVERY_MS = 60_000;
// Usage is written to the store at most this often, not once per request: a write per
// request cost ~0.55 ms of CPU per cache miss (bench 1: 1.99 → 1.44 ms).
const WRITE_EVERY_MS = 1_000;

export function createMonitoring(options: MonitoringOptions) {
  const { engine, monthlyQuota, warn = console.warn, now = Date.now } = options;
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const registers = [registry];
  const hourOf = (time: number) => Math.floor(time / HOUR_MS);
  const monthStartHour = (time: number) => {
    const date = new Date(time);
    return hourOf(Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), 1));
  };

  // Requests counted here and not yet written to the store, by hour.
  let unwritten = new Map<number, number>();
  let writing: ReturnType<typeof setTimeout> | undefined;
  /** The store's count since `hour`, with this server's requests not yet written. */
  const usageSince = async (hour: number) => {
    let total = await engine.usageSince(hour);
    for (const [at, count] of unwritten) if (at >= hour) total += count;
    return total;
  };

  const requests = new Counter({
    name: 'upstream_requests_total',
    help: 'Requests this server sent to the Token Events Service, by status (or failure).',
    labelNames: ['status'],
    registers,
  });
  const latency = new Histogram({
    name: 'upstream_request_duration_seconds',
    help: 'Time from sending a request upstream to having its whole body.',
    buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 15],
    registers,
  });
  new Gauge({
    name: 'upstream_requests_this_hour',
    help: 'Upstream requests in the current hour (UTC), by every server sharing the store.',
    registers,
    async collect() {
      const used = await orNothing(usageSince(hourOf(now())));
      if (used !== undefined) this.set(used);
    },
  });
  new Gauge({
    name: 'upstream_requests_this_month',
    help: 'Upstream requests in the current month (UTC), by every server sharing the store.',
    registers,
    async collect() {
      const used = await orNothing(usageSince(monthStartHour(now())));
      if (used !== undefined) this.set(used);
    },
  });
  new Gauge({
    name: 'upstream_monthly_quota',
    help: 'Upstream requests a month the API key may make (0: no quota set).',
    registers,
    collect() {
      this.set(monthlyQuota);
    },
  });
  const pages = new Counter({
    name: 'api_pages_total',
    help: 'Pages served to browsers, by where they came from (memory, store, upstream).',
    labelNames: ['source'],
    registers,
  });
  const recoveries = new Counter({
    name: 'store_recoveries_total',
    help: 'Dead upstream cursors replaced by walking a list from its head.',
    registers,
  });
  const recoveryPages = new Counter({
    name: 'store_recovery_upstream_pages_total',
    help: 'Upstream pages those walks from the head cost.',
    registers,
  });
  new Gauge({
    name: 'store_bytes',
    help: 'Bytes of records the event store holds.',
    registers,
    async collect() {
      const stats = await orNothing(engine.stats());
      if (stats) this.set(stats.bytes);
    },
  });
  new Gauge({
    name: 'store_lists',
    help: 'Lists the event store holds.',
    registers,
    async collect() {
      const stats = await orNothing(engine.stats());
      if (stats) this.set(stats.lists);
    },
  });

  let sinceCheck = 0;
  let checkedAt = 0;
  let warnedMonth = -1;
  const checkQuota = async (time: number) => {
    sinceCheck = 0;
    checkedAt = time;
    const month = monthStartHour(time);
    const used = await usageSince(month);
    if (used >= monthlyQuota * QUOTA_WARNING_SHARE && warnedMonth !== month) {
      warnedMonth = month;
      const share = Math.round((used / monthlyQuota) * 100);
      warn(
        `Upstream usage this month: ${used} of ${monthlyQuota} requests (${share}%). ` +
          'Past the quota the service answers 429 "Limit Exceeded" until the month ends.',
      );
    }
  };

  /** Adds the counted requests to the store's usage, then checks the quota when due. */
  const write = async () => {
    clearTimeout(writing);
    writing = undefined;
    const counts = unwritten;
    unwritten = new Map();
    try {
      for (const [hour, count] of counts) {
        await engine.addUsage(hour, count);
        sinceCheck += count;
      }
      const time = now();
      const due = sinceCheck >= CHECK_EVERY_REQUESTS || time - checkedAt >= CHECK_EVERY_MS;
      if (monthlyQuota > 0 && due && counts.size > 0) await checkQuota(time);
    } catch (error) {
      warn(`Could not count upstream usage: ${(error as Error).message}`);
    }
  };

  return {
    registry,
    /** Counts one request sent upstream, here and in the shared usage. */
    upstreamRequest({ status, durationMs }: UpstreamRequestOutcome) {
      requests.inc({ status: String(status) });
      latency.observe(durationMs / 1000);
      const hour = hourOf(now());
      unwritten.set(hour, (unwritten.get(hour) ?? 0) + 1);
      if (!writing) {
        writing = setTimeout(() => void write(), WRITE_EVERY_MS);
        writing.unref?.();
      }
    },
    /** Upstream requests of the current month (UTC) by every server sharing the store. */
    monthUsage: () => usageSince(monthStartHour(now())),
    /** Writes the usage counted so far to the store (at shutdown; otherwise every second). */
    flush: () => write(),
    pageServed(source: PageSource) {
      pages.inc({ source });
    },
    recovered(upstreamPages: number) {
      recoveries.inc();
      recoveryPages.inc(upstreamPages);
    },
  };
}

export type Monitoring = ReturnType<typeof createMonitoring>;

/**
 * A figure read from the database, or nothing while it is down: /metrics still answers
 * with every other figure (and `up` of whoever scrapes it stays 1) rather than failing.
 */
const orNothing = <T>(promise: Promise<T>): Promise<T | undefined> =>
  promise.catch(() => undefined);
