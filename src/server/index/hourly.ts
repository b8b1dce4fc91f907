import type { WashMode } from '../../lib/answers';
import { HOUR } from '../../lib/utc';

/**
 * The hourly rollup (`idx_hourly`) as the rows (`c`, of idx_changes) of `from` make it:
 * per contract, hour, kind, marketplace and currency, the events and their volume, and
 * the part of both that is flagged as wash trades (so a figure without them is the total
 * less the flagged part). Ingest recomputes the hours it touched with it; the migration
 * that added the flagged part rebuilt every hour with it.
 */

export const hourlyRows = (from: string, where: string) => `
INSERT INTO idx_hourly (contract_id, hour, kind, marketplace, currency, events, volume,
  wash_events, wash_volume)
SELECT c.contract_id, (c.ts / ${HOUR})::integer, c.kind, coalesce(c.marketplace, ''),
  coalesce(c.currency, '\\x'::bytea), count(*), coalesce(sum(c.price), 0),
  count(*) FILTER (WHERE c.wash <> 0), coalesce(sum(c.price) FILTER (WHERE c.wash <> 0), 0)
FROM ${from}
WHERE ${where}
GROUP BY 1, 2, 3, 4, 5`;

/**
 * An hour's `events` or `volume`: all of it, less its flagged part when flagged sales are
 * left out, or that part alone when they are counted alone.
 */
export const hourlyTotal = (column: 'events' | 'volume', wash: WashMode = 'include') =>
  wash === 'exclude' ? `${column} - wash_${column}` : wash === 'only' ? `wash_${column}` : column;
