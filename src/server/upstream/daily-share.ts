import type { PageReader } from './page-read';
import { DAY_MS } from '../../lib/utc';

/**
 * Each visitor's share of the month: at most `perDay` requests to the service a UTC day
 * caused by one client (its head and token reads, its /api/v1 pages), so that no visitor
 * spends the month others need. The indexer's own reads (whole histories of listed
 * contracts, each read once for everyone; the background; verification) and readiness are
 * not a visitor's. Counted per server, in memory: a day's count is lost with a restart.
 */
export function withDailyShare(
  read: PageReader,
  perDay: number,
  now: () => number = Date.now,
): PageReader {
  if (perDay <= 0) return read;
  let day = -1;
  let counts = new Map<string, number>();
  return async (path, client, signal) => {
    if (client.startsWith('indexer') || client === 'readiness') return read(path, client, signal);
    const today = Math.floor(now() / DAY_MS);
    if (today !== day) {
      day = today;
      counts = new Map();
    }
    const used = counts.get(client) ?? 0;
    if (used >= perDay) {
      const secondsLeft = Math.ceil(((today + 1) * DAY_MS - now()) / 1000);
      return { kind: 'failed', failure: { kind: 'daily_share', secondsLeft } };
    }
    counts.set(client, used + 1);
    return read(path, client, signal);
  };
}
