import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import pg from 'pg';
import { afterEach } from 'vitest';
import { migrate } from '../../../src/server/database/migrations';
import { createDeliverer, DEFAULT_DELIVERER } from '../../../src/server/webhooks/deliverer';
import { createWebhookApi } from '../../../src/server/webhooks/webhook-api';
import type { WebhookRule } from '../../../src/server/webhooks/rules';
import { usePostgresDatabases } from '../../support/postgres-databases';

/**
 * Webhooks on a test database: the routes (with the operator's token), a deliverer that
 * retries quickly, and local receivers (node:http on 127.0.0.1) that record every
 * delivery and can fail the first attempts of each.
 */
export const TOKEN = 'operator-token-for-tests';
// Subscriptions are made at this time: the histories' changes come after it.
export const MADE_AT_MS = 1_600_000_000_000;

export interface Received {
  id: string;
  timestamp: string;
  signature: string;
  body: string;
  status: number;
}

export function useWebhooks() {
  const databases = usePostgresDatabases();
  const cleanups: (() => Promise<unknown>)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  async function open(
    options: { allowPrivate?: boolean; resolve?: (host: string) => Promise<string[]> } = {},
  ) {
    const database = await databases.database();
    const pool = new pg.Pool({ connectionString: database.url, max: 6 });
    cleanups.push(database.drop, () => pool.end());
    await migrate(pool);
    const api = createWebhookApi({
      pool,
      token: TOKEN,
      allowPrivate: options.allowPrivate ?? true,
      ...(options.resolve && { resolve: options.resolve }),
      now: () => MADE_AT_MS,
    });
    const call = async (method: string, path: string, body?: unknown, token = TOKEN) => {
      const response = await api.request(path, {
        method,
        headers: {
          ...(token && { authorization: `Bearer ${token}` }),
          ...(body !== undefined && { 'content-type': 'application/json' }),
        },
        ...(body !== undefined && { body: typeof body === 'string' ? body : JSON.stringify(body) }),
      });
      // eslint-disable-next-line @typescript-eslint/no-explicit-any
      return { status: response.status, body: (await response.json()) as any };
    };
    const subscribe = async (url: string, rule: WebhookRule | Record<string, unknown>) => {
      const made = await call('POST', '/api/webhooks', { url, rule });
      if (made.status !== 201) throw new Error(`not made: ${JSON.stringify(made.body)}`);
      return made.body as { id: string; secret: string };
    };
    const deliverer = (settings: Partial<typeof DEFAULT_DELIVERER> = {}) => {
      const made = createDeliverer(pool, {
        ...DEFAULT_DELIVERER,
        allowPrivate: true,
        pollMs: 20,
        retryBaseMs: 20,
        retryMaxMs: 100,
        ...settings,
      });
      cleanups.push(() => made.stop());
      return made;
    };
    /** The outbox's bodies, oldest first. */
    const outbox = async () => {
      const { rows } = await pool.query<{ id: string; subscription_id: string; body: string }>(
        'SELECT id, subscription_id, body FROM webhook_deliveries ORDER BY created_at, id',
      );
      return rows.map((row) => ({
        id: row.id,
        webhook: row.subscription_id,
        // eslint-disable-next-line @typescript-eslint/no-explicit-any
        body: JSON.parse(row.body) as any,
      }));
    };
    return { pool, call, subscribe, deliverer, outbox };
  }

  /** A receiver answering 500 to the first `failFirst` attempts of each delivery, then 200. */
  async function receiver(failFirst = 0) {
    const received: Received[] = [];
    const attempts = new Map<string, number>();
    const server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        const headers: IncomingHttpHeaders = request.headers;
        const id = String(headers['webhook-id']);
        const attempt = (attempts.get(id) ?? 0) + 1;
        attempts.set(id, attempt);
        const status = attempt <= failFirst ? 500 : 200;
        received.push({
          id,
          timestamp: String(headers['webhook-timestamp']),
          signature: String(headers['webhook-signature']),
          body: Buffer.concat(chunks).toString(),
          status,
        });
        response.writeHead(status).end();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    cleanups.push(() => new Promise((resolve) => server.close(resolve)));
    const { port } = server.address() as AddressInfo;
    return { url: `http://127.0.0.1:${port}/hook`, received };
  }

  return { open, receiver };
}
