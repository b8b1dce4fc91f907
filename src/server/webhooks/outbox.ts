import type pg from 'pg';
import type { EventRow } from '../../lib/answers';
import { EVENT_COLUMNS, EVENT_FROM, eventRow, type EventRecord } from '../index/event-rows';
import { conditions, eitherParty } from '../index/events-query';
import { Sql } from '../index/sql';
import { viewFilters, webhookRule, type WebhookRule } from './rules';

/**
 * The channel the outbox tells of new deliveries on (`NOTIFY`, inside the transaction that
 * wrote them): every server's deliverer listening hears it once they are committed.
 */
export const DELIVERIES_CHANNEL = 'webhook_deliveries_due';

/**
 * The rules of every webhook watching a collection, evaluated on what one ingest of its
 * records found, and the deliveries they call for written to the outbox in that same
 * transaction: a commit that stores the changes stores their deliveries, a rollback drops
 * both. Only what the commit adds counts (new changes of hands, sales that joined their
 * transfer, sales newly flagged, the holders' count moved): a history read again adds
 * nothing, and a rebuild never comes here.
 */
export interface Watching {
  id: string;
  rule: WebhookRule;
  createdAt: number;
}

/** What one ingest of a collection's records found, for the rules. */
export interface Found {
  contract: string;
  contractId: number;
  /** Changes of hands the commit added, or that became sales. */
  added: readonly string[];
  /** Sales whose flags went from none to some. */
  flagged: readonly string[];
  /** Holders before the commit, when a holders rule asked for it (`holdersNow`). */
  holdersBefore?: number;
}

/** True when any webhook is registered (SQL): ingest asks it with its lock, at no cost. */
export const ANY_WEBHOOK = 'EXISTS (SELECT 1 FROM webhook_subscriptions)';

/** The webhooks watching `contract` (or every collection). */
export async function watchersOf(client: pg.ClientBase, contract: string): Promise<Watching[]> {
  const { rows } = await client.query<{ id: string; rule: unknown; created_at: string }>(
    `SELECT id, rule, created_at FROM webhook_subscriptions
     WHERE collection = $1 OR collection IS NULL`,
    [contract],
  );
  const watching: Watching[] = [];
  for (const row of rows) {
    // Checked when made; one that no longer reads (a rule changed since) is skipped.
    const rule = webhookRule.safeParse(row.rule);
    if (rule.success)
      watching.push({ id: row.id, rule: rule.data, createdAt: Number(row.created_at) });
  }
  return watching;
}

/** The collection's holders now, when a holders rule watches it. */
export async function holdersNow(
  client: pg.ClientBase,
  contractId: number,
  watching: readonly Watching[],
): Promise<number | undefined> {
  if (!watching.some((each) => each.rule.kind === 'holders')) return undefined;
  const { rows } = await client.query<{ holders: string }>(
    'SELECT count(*) AS holders FROM idx_owners WHERE contract_id = $1',
    [contractId],
  );
  return Number(rows[0]!.holders);
}

interface Delivery {
  id: string;
  subscription: string;
  event: WebhookRule['kind'];
  data: Record<string, unknown>;
}

// A sale's rolling median: the `window` sales of the collection in its currency just
// before it (time, then the order stored), as one index range each; only a full window.
const ABOVE_MEDIAN = `
SELECT s.id, m.median::text AS median FROM idx_changes s
CROSS JOIN LATERAL (
  SELECT percentile_disc(0.5) WITHIN GROUP (ORDER BY p.price) AS median, count(*) AS n FROM (
    SELECT o.price FROM idx_changes o
    WHERE o.contract_id = s.contract_id AND o.kind = 2 AND o.price IS NOT NULL
      AND o.currency = s.currency AND (o.ts, o.id) < (s.ts, s.id)
    ORDER BY o.ts DESC, o.id DESC LIMIT $3
  ) p
) m
WHERE s.id = ANY($1::bigint[]) AND s.kind = 2 AND s.price IS NOT NULL AND s.ts >= $2
  AND m.n = $3 AND s.price >= m.median * $4::numeric
ORDER BY s.ts, s.id`;

/** The ids among `ids` (changes at or after `since`) a rule's conditions keep. */
async function matching(
  client: pg.ClientBase,
  ids: readonly string[],
  since: number,
  where: (sql: Sql) => string[],
): Promise<string[]> {
  if (ids.length === 0) return [];
  const sql = new Sql();
  const all = [
    `c.id = ANY(${sql.param(ids)}::bigint[])`,
    `c.ts >= ${sql.param(since)}`,
    ...where(sql),
  ];
  const { rows } = await client.query<{ id: string }>(
    `SELECT c.id FROM idx_changes c WHERE ${all.join(' AND ')} ORDER BY c.ts, c.id`,
    sql.values,
  );
  return rows.map((row) => row.id);
}

/** What each watching rule fires on in `found`. */
async function deliveriesOf(
  client: pg.ClientBase,
  watching: readonly Watching[],
  found: Found,
): Promise<{ deliveries: Delivery[]; rows: Set<string> }> {
  const deliveries: Delivery[] = [];
  const rows = new Set<string>();
  const fire = (
    each: Watching,
    ids: string[],
    key: string,
    data: (id: string) => object = () => ({}),
  ) => {
    for (const id of ids) {
      rows.add(id);
      deliveries.push({
        id: `msg_${each.id}_${key}${id}`,
        subscription: each.id,
        event: each.rule.kind,
        data: { change: id, ...data(id) },
      });
    }
  };
  for (const each of watching) {
    const { rule } = each;
    switch (rule.kind) {
      case 'view': {
        const view = viewFilters(rule.view);
        if (typeof view === 'string') break;
        const ids = await matching(client, found.added, each.createdAt, (sql) => [
          ...conditions(sql, view.filters),
          ...(view.filters.address ? [eitherParty(sql, view.filters.address)] : []),
        ]);
        fire(each, ids, '');
        break;
      }
      case 'wallet': {
        const ids = await matching(client, found.added, each.createdAt, (sql) => [
          eitherParty(sql, rule.wallet),
        ]);
        fire(each, ids, '');
        break;
      }
      case 'flagged-sale': {
        const ids = await matching(client, found.flagged, each.createdAt, () => ['c.wash <> 0']);
        fire(each, ids, 'f');
        break;
      }
      case 'sale-above-median': {
        if (found.added.length === 0) break;
        const { rows: above } = await client.query<{ id: string; median: string }>(ABOVE_MEDIAN, [
          found.added,
          each.createdAt,
          rule.window,
          String(rule.factor),
        ]);
        const medians = new Map(above.map((row) => [row.id, row.median]));
        fire(each, [...medians.keys()], '', (id) => ({
          median: medians.get(id),
          factor: rule.factor,
          window: rule.window,
        }));
        break;
      }
      case 'holders': {
        const before = found.holdersBefore;
        if (before === undefined || found.added.length === 0) break;
        const after = (await holdersNow(client, found.contractId, [each]))!;
        const up = before < rule.threshold && after >= rule.threshold;
        const down = before >= rule.threshold && after < rule.threshold;
        if (!up && !down) break;
        // The commit's latest change names the crossing: one delivery per commit that crosses.
        const [latest] = await matching(client, found.added, each.createdAt, () => []).then((ids) =>
          ids.slice(-1),
        );
        if (latest === undefined) break;
        const id = `msg_${each.id}_h${latest}`;
        deliveries.push({
          id,
          subscription: each.id,
          event: 'holders',
          data: {
            collection: found.contract,
            threshold: rule.threshold,
            holders: after,
            before,
            direction: up ? 'up' : 'down',
            change: latest,
          },
        });
        rows.add(latest);
        break;
      }
    }
  }
  return { deliveries, rows };
}

/**
 * Writes the deliveries `found` calls for to the outbox, in the caller's transaction;
 * answers how many were new (one already queued for the same event is left as it is).
 */
export async function enqueueDeliveries(
  client: pg.ClientBase,
  watching: readonly Watching[],
  found: Found,
  nowMs: number,
): Promise<number> {
  if (watching.length === 0) return 0;
  const { deliveries, rows } = await deliveriesOf(client, watching, found);
  if (deliveries.length === 0) return 0;
  const { rows: records } = await client.query<EventRecord>(
    `SELECT ${EVENT_COLUMNS} FROM ${EVENT_FROM} WHERE c.id = ANY($1::bigint[])`,
    [[...rows]],
  );
  const events = new Map<string, EventRow>(records.map((record) => [record.id, eventRow(record)]));
  const bodies = deliveries.map(({ id, subscription, event, data }) => {
    const { change, ...rest } = data as { change: string };
    return JSON.stringify({
      type: event,
      id,
      webhook: subscription,
      timestamp: new Date(nowMs).toISOString(),
      data: { ...rest, event: events.get(change) },
    });
  });
  const { rowCount } = await client.query(
    `INSERT INTO webhook_deliveries (id, subscription_id, event, body, created_at, next_at)
     SELECT i, s, e, b, $5, $5 FROM unnest($1::text[], $2::bigint[], $3::text[], $4::text[]) AS u(i, s, e, b)
     ON CONFLICT (id) DO NOTHING`,
    [
      deliveries.map((each) => each.id),
      deliveries.map((each) => each.subscription),
      deliveries.map((each) => each.event),
      bodies,
      nowMs,
    ],
  );
  // Deliverers listening wake once this commits, rather than on their next look.
  if (rowCount) await client.query('SELECT pg_notify($1, $2)', [DELIVERIES_CHANNEL, '']);
  return rowCount ?? 0;
}
