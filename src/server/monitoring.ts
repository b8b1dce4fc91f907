import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { ReadPools } from './database/read-pools';
import type { RecordLog } from './log/record-log';
import type { UpstreamRequestOutcome } from './upstream/page-read';
import { HOUR_MS } from '../lib/utc';

/**
 * What an operator watches: the upstream requests spent (per hour and in the month, by
 * every server sharing the database, against the monthly quota, with a warning in the log
 * at 80%), their latency, where /api/v1 pages came from, the record log's size, and what
 * the verification pass found. Served as Prometheus text on `/metrics`.
 */
export interface MonitoringOptions {
  /** Where usage is counted (shared with the other servers when it is PostgreSQL). */
  engine: Pick<RecordLog, 'addUsage' | 'usageSince' | 'stats'>;
  /** Upstream requests a month the key may make; 0: no quota. */
  monthlyQuota: number;
  /** Where the index's reads go: each replica's state and lag, reads by where they went. */
  reads?: Pick<ReadPools, 'states' | 'reads'>;
  warn?: (message: string) => void;
  now?: () => number;
}

/** Where a page served to a browser came from. */
export type PageSource = 'log' | 'upstream';

const QUOTA_WARNING_SHARE = 0.8;
// The month's count is read again after this many requests or this long, not on each one.
const CHECK_EVERY_REQUESTS = 50;
const CHECK_EVERY_MS = 60_000;

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

  /*
   * The usage count is written with each request, not kept in memory for a while: a
   * `kill -9` must not lose what the upstream already counted against the quota. One
   * write is in flight at a time; requests counted meanwhile (or in the same tick) go
   * together in the next one, so under load a write carries many requests and its cost
   * is shared, while a lone request is written at once. Reads of the count wait their
   * turn between writes, so the database's figure plus the requests not yet written is
   * exact: no write is ever half-way while it is read.
   */
  // Requests counted and not yet written, by hour, and the callers waiting for them.
  let unwritten = new Map<number, number>();
  let waiting: Array<() => void> = [];
  // Reads of the count (and flushes), run between writes.
  let turns: Array<() => Promise<void>> = [];
  let pumping = false;
  let failing = false;
  let sinceCheck = 0;
  let checkedAt = 0;
  let quotaCheck: Promise<void> = Promise.resolve();

  const unwrittenSince = (hour: number) => {
    let total = 0;
    for (const [at, count] of unwritten) if (at >= hour) total += count;
    return total;
  };

  /** Writes what is counted; on failure keeps it to write again. False when it failed. */
  const writeCounted = async () => {
    const batch = unwritten;
    const done = waiting;
    unwritten = new Map();
    waiting = [];
    let written = 0;
    let ok = true;
    try {
      for (const [hour, count] of [...batch]) {
        await engine.addUsage(hour, count);
        batch.delete(hour);
        written += count;
      }
      if (written > 0) failing = false;
    } catch (error) {
      ok = false;
      // Kept, with whatever was counted meanwhile, for the next write.
      for (const [hour, count] of batch) unwritten.set(hour, (unwritten.get(hour) ?? 0) + count);
      if (!failing) {
        warn(
          `Could not count upstream usage (kept in memory, written when the database ` +
            `answers again): ${(error as Error).message}`,
        );
      }
      failing = true;
    } finally {
      // Callers are never held by the database: counted as well as it could be.
      for (const resolve of done) resolve();
    }
    sinceCheck += written;
    const time = now();
    const due = sinceCheck >= CHECK_EVERY_REQUESTS || time - checkedAt >= CHECK_EVERY_MS;
    if (monthlyQuota > 0 && written > 0 && due) {
      // Not awaited: its read takes a turn of this very loop.
      quotaCheck = checkQuota(time).catch((error: unknown) =>
        warn(`Could not check the monthly quota: ${(error as Error).message}`),
      );
    }
    return ok;
  };

  /**
   * Writes, then reads, in turn, until nothing is left. After a failed write, what it
   * kept is tried again only with a request counted since (or a flush), not in a loop.
   */
  const pump = async () => {
    try {
      let failed = false;
      for (;;) {
        const write = waiting.length > 0 || (unwritten.size > 0 && !failed);
        if (!write && turns.length === 0) break;
        if (write) failed = !(await writeCounted());
        const reads = turns;
        turns = [];
        await Promise.all(reads.map((read) => read()));
      }
    } finally {
      // Synchronously at the loop's end: anything added later starts a new loop.
      pumping = false;
    }
  };
  const start = () => {
    if (pumping) return;
    pumping = true;
    void pump();
  };

  /** Runs `read` between writes. */
  const inTurn = <T>(read: () => Promise<T>) =>
    new Promise<T>((resolve, reject) => {
      turns.push(() => read().then(resolve, reject));
      start();
    });

  /** The database's count since `hour`, with this server's requests not yet written. */
  const usageSince = (hour: number) =>
    inTurn(async () => (await engine.usageSince(hour)) + unwrittenSince(hour));

  const counter = (name: string, help: string, labelNames: readonly string[] = []) =>
    new Counter({ name, help, labelNames, registers });
  /** A gauge read when scraped; left as it was when `read` has nothing (the database failed). */
  const scrapedGauge = (name: string, help: string, read: () => Promise<number | undefined>) =>
    new Gauge({
      name,
      help,
      registers,
      async collect() {
        const value = await read();
        if (value !== undefined) this.set(value);
      },
    });

  const requests = counter(
    'upstream_requests_total',
    'Requests this server sent to the Token Events Service, by status (or failure).',
    ['status'],
  );
  const latency = new Histogram({
    name: 'upstream_request_duration_seconds',
    help: 'Time from sending a request upstream to having its whole body.',
    buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 15],
    registers,
  });
  for (const [period, startHour] of [
    ['hour', hourOf],
    ['month', monthStartHour],
  ] as const) {
    scrapedGauge(
      `upstream_requests_this_${period}`,
      `Upstream requests in the current ${period} (UTC), by every server sharing the database.`,
      () => orNothing(usageSince(startHour(now()))),
    );
  }
  new Gauge({
    name: 'upstream_monthly_quota',
    help: 'Upstream requests a month the API key may make (0: no quota set).',
    registers,
    collect() {
      this.set(monthlyQuota);
    },
  });
  const pages = counter(
    'api_pages_total',
    '/api/v1 pages served, by where they came from (log alone, or with upstream reads).',
    ['source'],
  );
  const recoveries = counter(
    'log_recoveries_total',
    'Dead upstream cursors replaced by walking a list from its head.',
  );
  const recoveryPages = counter(
    'log_recovery_upstream_pages_total',
    'Upstream pages those walks from the head cost.',
  );
  const verifications = counter(
    'log_verification_passes_total',
    'Verification passes ended: whole histories read again and reconciled.',
  );
  const verifyPages = counter(
    'log_verification_upstream_pages_total',
    'Upstream pages those passes read.',
  );
  const findings = counter(
    'log_verification_records_total',
    'Records the passes found added, changed or no longer listed by the service.',
    ['finding'],
  );
  scrapedGauge('log_bytes', 'Bytes the record log takes on disk, with its indexes.', async () => {
    return (await orNothing(engine.stats()))?.bytes;
  });
  scrapedGauge('log_records', 'Records the record log holds and the service lists.', async () => {
    return (await orNothing(engine.stats()))?.records;
  });
  scrapedGauge('log_lists', 'Lists the record log holds.', async () => {
    return (await orNothing(engine.stats()))?.lists;
  });

  const { reads } = options;
  if (reads) {
    new Gauge({
      name: 'database_replica_up',
      help: 'Whether a replica is read (1: up, or lagging and said so; 0: down, or too far behind).',
      labelNames: ['replica'],
      registers,
      collect() {
        for (const { name, health } of reads.states()) {
          this.set({ replica: name }, health === 'up' || health === 'lagging' ? 1 : 0);
        }
      },
    });
    new Gauge({
      name: 'database_replica_lag_seconds',
      help: 'How far behind the primary each replica was at its last check (absent while down).',
      labelNames: ['replica'],
      registers,
      collect() {
        this.reset();
        for (const { name, lagSeconds } of reads.states()) {
          if (lagSeconds !== null) this.set({ replica: name }, lagSeconds);
        }
      },
    });
    new Counter({
      name: 'database_reads_total',
      help: "Requests' index reads by where they went: the primary, or a replica.",
      labelNames: ['to'],
      registers,
      collect() {
        this.reset();
        for (const [to, count] of Object.entries(reads.reads())) this.inc({ to }, count);
      },
    });
  }

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

  return {
    registry,
    /**
     * Counts one request sent upstream, here and in the shared usage. The count is written
     * at once (with any others counted meanwhile); the promise resolves when it is, and
     * never rejects (a failed write is kept and written again with the next).
     */
    upstreamRequest({ status, durationMs }: UpstreamRequestOutcome): Promise<void> {
      requests.inc({ status: String(status) });
      latency.observe(durationMs / 1000);
      const hour = hourOf(now());
      unwritten.set(hour, (unwritten.get(hour) ?? 0) + 1);
      return new Promise<void>((resolve) => {
        waiting.push(resolve);
        // Requests counted in the same tick share a write.
        if (!pumping) queueMicrotask(start);
      });
    },
    /** Upstream requests of the current month (UTC) by every server sharing the database. */
    monthUsage: () => usageSince(monthStartHour(now())),
    /**
     * Writes whatever is counted and not yet written (at shutdown; a write that failed is
     * tried again), and waits for the quota check it leads to.
     */
    flush: async () => {
      await new Promise<void>((resolve) => {
        waiting.push(resolve);
        start();
      });
      await quotaCheck;
    },
    pageServed(source: PageSource) {
      pages.inc({ source });
    },
    recovered(upstreamPages: number) {
      recoveries.inc();
      recoveryPages.inc(upstreamPages);
    },
    verified(found: { pages: number; added: number; changed: number; removed: number }) {
      verifications.inc();
      verifyPages.inc(found.pages);
      findings.inc({ finding: 'added' }, found.added);
      findings.inc({ finding: 'changed' }, found.changed);
      findings.inc({ finding: 'removed' }, found.removed);
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
