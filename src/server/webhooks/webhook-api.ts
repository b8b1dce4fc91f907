import { createHash, timingSafeEqual } from 'node:crypto';
import { Hono, type Context } from 'hono';
import type pg from 'pg';
import { API_ROUTES, honoPath } from '../api/api-routes';
import { deliveriesParams, problemOf, webhookId } from '../api/params';
import {
  AddressRefused,
  isPublicAddress,
  pinnedAddress,
  type AddressCheck,
} from '../network-address';
import { errorResponse } from '../proxy/error-response';
import { checkedReceiverUrl } from './receiver-url';
import { ruleCollection, viewFilters, webhookRequest } from './rules';
import { newSecret } from './signature';

/**
 * The webhook routes: made, listed, their delivery log, deleted. Only for whoever holds
 * the operator's token (`WEBHOOK_TOKEN`, sent as `Authorization: Bearer …`); without one
 * set they answer 404, saying how to turn them on.
 */
export interface WebhookApiOptions {
  pool: pg.Pool;
  /** `WEBHOOK_TOKEN`; unset: webhooks are off. */
  token: string | undefined;
  /** `WEBHOOK_ALLOW_PRIVATE`: private, loopback and link-local receivers taken. */
  allowPrivate: boolean;
  resolve?: AddressCheck['resolve'];
  now?: () => number;
}

// A rule and a URL: a few hundred bytes; this is far past any.
const MAX_BODY_BYTES = 16 * 1024;

const OFF = 'Webhooks are off on this server: its operator turns them on by setting WEBHOOK_TOKEN.';
const UNAUTHORIZED =
  'Webhooks need the operator’s token: send it as Authorization: Bearer <WEBHOOK_TOKEN>.';

const digest = (text: string) => createHash('sha256').update(text).digest();

const bad = (message: string) => errorResponse({ kind: 'bad_request', status: 400, message });
const notFound = (message: string) => errorResponse({ kind: 'not_found', status: 404, message });

interface SubscriptionRow {
  id: string;
  url: string;
  rule: unknown;
  created_at: string;
  pending: string;
  delivered: string;
  failed: string;
}

export function createWebhookApi(options: WebhookApiOptions) {
  const { pool, token, now = Date.now } = options;
  const check: AddressCheck = {
    permits: options.allowPrivate ? () => true : isPublicAddress,
    ...(options.resolve && { resolve: options.resolve }),
  };
  const app = new Hono<{ Variables: { route: string } }>();
  const expected = token === undefined ? undefined : digest(token);

  app.use('/api/webhooks/*', guard);
  app.use('/api/webhooks', guard);

  async function guard(c: Context, next: () => Promise<void>) {
    c.set('route', 'webhooks');
    if (!expected) return notFound(OFF);
    const given = /^Bearer (.+)$/i.exec(c.req.header('authorization') ?? '')?.[1] ?? '';
    if (!timingSafeEqual(digest(given), expected)) {
      return errorResponse(
        { kind: 'unauthorized', status: 401, message: UNAUTHORIZED },
        { 'www-authenticate': 'Bearer realm="webhooks"' },
      );
    }
    return next();
  }

  app.post(honoPath(API_ROUTES.createWebhook), async (c) => {
    const text = await c.req.text();
    if (Buffer.byteLength(text) > MAX_BODY_BYTES) {
      return bad(`The body must be at most ${MAX_BODY_BYTES} bytes of JSON.`);
    }
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      return bad('The body must be JSON: {"url": "https://…", "rule": {"kind": …}}.');
    }
    const parsed = webhookRequest.safeParse(json);
    if (!parsed.success) return bad(problemOf(parsed.error));
    const { url: given, rule } = parsed.data;
    const url = checkedReceiverUrl(given);
    if (typeof url === 'string') return bad(url);
    try {
      await pinnedAddress(url.hostname, check);
    } catch (error) {
      if (!(error instanceof AddressRefused)) {
        const code = (error as { code?: unknown }).code;
        return bad(
          `url is refused: ${url.hostname} could not be resolved${typeof code === 'string' ? ` (${code})` : ''}.`,
        );
      }
      return bad(
        `url is refused: ${error.message}. Private, loopback and link-local receivers need WEBHOOK_ALLOW_PRIVATE on this server.`,
      );
    }
    if (rule.kind === 'view') {
      const view = viewFilters(rule.view);
      if (typeof view === 'string') return bad(`rule.view: ${view}`);
    }
    const secret = newSecret();
    const createdAt = Math.floor(now() / 1000);
    const { rows } = await pool.query<{ id: string }>(
      `INSERT INTO webhook_subscriptions (url, secret, rule, collection, created_at)
       VALUES ($1, $2, $3, $4, $5) RETURNING id`,
      [url.href, secret, JSON.stringify(rule), ruleCollection(rule), createdAt],
    );
    return c.json({ id: rows[0]!.id, url: url.href, rule, secret, createdAt }, 201, {
      'cache-control': 'no-store',
    });
  });

  app.get(honoPath(API_ROUTES.webhooks), async (c) => {
    const { rows } = await pool.query<SubscriptionRow>(
      `SELECT s.id, s.url, s.rule, s.created_at,
         count(*) FILTER (WHERE d.status = 'pending') AS pending,
         count(*) FILTER (WHERE d.status = 'delivered') AS delivered,
         count(*) FILTER (WHERE d.status = 'failed') AS failed
       FROM webhook_subscriptions s LEFT JOIN webhook_deliveries d ON d.subscription_id = s.id
       GROUP BY s.id ORDER BY s.id`,
    );
    return c.json(
      {
        webhooks: rows.map((row) => ({
          id: row.id,
          url: row.url,
          rule: row.rule,
          createdAt: Number(row.created_at),
          deliveries: {
            pending: Number(row.pending),
            delivered: Number(row.delivered),
            failed: Number(row.failed),
          },
        })),
      },
      200,
      { 'cache-control': 'no-store' },
    );
  });

  app.get(honoPath(API_ROUTES.webhookDeliveries), async (c) => {
    const id = webhookId.safeParse(c.req.param('id'));
    if (!id.success) return bad(problemOf(id.error));
    const query = deliveriesParams.safeParse(c.req.query());
    if (!query.success) return bad(problemOf(query.error));
    const known = await pool.query('SELECT 1 FROM webhook_subscriptions WHERE id = $1', [id.data]);
    if (known.rowCount === 0) return notFound(`No webhook ${id.data}.`);
    const { rows } = await pool.query<{
      id: string;
      event: string;
      body: string;
      created_at: string;
      attempts: number;
      status: string;
      last_status: number | null;
      last_error: string | null;
      next_at: string;
      delivered_at: string | null;
    }>(
      `SELECT id, event, body, created_at, attempts, status, last_status, last_error, next_at,
         delivered_at FROM webhook_deliveries WHERE subscription_id = $1
       ORDER BY created_at DESC, id DESC LIMIT $2`,
      [id.data, query.data.limit],
    );
    return c.json(
      {
        deliveries: rows.map((row) => ({
          id: row.id,
          event: row.event,
          status: row.status,
          attempts: row.attempts,
          createdAt: Number(row.created_at),
          nextAttemptAt: row.status === 'pending' ? Number(row.next_at) : null,
          deliveredAt: row.delivered_at === null ? null : Number(row.delivered_at),
          lastStatus: row.last_status,
          lastError: row.last_error,
          body: JSON.parse(row.body) as unknown,
        })),
      },
      200,
      { 'cache-control': 'no-store' },
    );
  });

  app.delete(honoPath(API_ROUTES.deleteWebhook), async (c) => {
    const id = webhookId.safeParse(c.req.param('id'));
    if (!id.success) return bad(problemOf(id.error));
    const { rowCount } = await pool.query('DELETE FROM webhook_subscriptions WHERE id = $1', [
      id.data,
    ]);
    if (rowCount === 0) return notFound(`No webhook ${id.data}.`);
    return c.json({ deleted: id.data }, 200, { 'cache-control': 'no-store' });
  });

  return app;
}
