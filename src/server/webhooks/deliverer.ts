import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type pg from 'pg';
import {
  AddressRefused,
  isAddressLiteral,
  isPublicAddress,
  lookupAs,
  pinnedAddress,
  type AddressCheck,
} from '../network-address';
import { DELIVERIES_CHANNEL } from './outbox';
import { sign } from './signature';
import { checkedReceiverUrl } from './receiver-url';

/**
 * Sends the outbox's deliveries. Every server runs one; a due delivery is claimed by one
 * of them alone (`FOR UPDATE SKIP LOCKED`, and its `next_at` moved past the send's
 * deadline, so one whose server dies is claimed again once that passes): at least once,
 * never twice at the same time. A 2xx answer delivers it; anything else is tried again
 * after a wait that doubles, until the last attempt fails it for good.
 */
export interface DelivererSettings {
  /** Private, loopback and link-local receivers allowed (`WEBHOOK_ALLOW_PRIVATE`). */
  allowPrivate: boolean;
  /**
   * The longest wait between two looks at the outbox. New deliveries wake the deliverer at
   * once (the outbox's notice); a retry is looked for when it comes due; this bounds the
   * wait when the listening session is lost, or a notice with it.
   */
  pollMs: number;
  /** One attempt's deadline: connection, answer and its body. */
  timeoutMs: number;
  maxAttempts: number;
  /** The wait after the first failure; each next one doubles, up to `retryMaxMs`. */
  retryBaseMs: number;
  retryMaxMs: number;
  /** Deliveries sent at once by this server. */
  batch: number;
}

export const DEFAULT_DELIVERER: DelivererSettings = {
  allowPrivate: false,
  pollMs: 5_000,
  timeoutMs: 10_000,
  // 2 s, 4 s … 1 h apart: about 4 hours from the first attempt to the last.
  maxAttempts: 14,
  retryBaseMs: 2_000,
  retryMaxMs: 3_600_000,
  batch: 10,
};

interface Claimed {
  id: string;
  body: string;
  attempts: number;
  url: string;
  secret: string;
}

/** The wait before attempt `attempts + 1`, after `attempts` failed. */
export const retryDelay = (
  attempts: number,
  settings: Pick<DelivererSettings, 'retryBaseMs' | 'retryMaxMs'>,
) => Math.min(settings.retryMaxMs, settings.retryBaseMs * 2 ** Math.max(0, attempts - 1));

const CLAIM = `
UPDATE webhook_deliveries d SET attempts = d.attempts + 1, next_at = $2
FROM (
  SELECT id FROM webhook_deliveries WHERE status = 'pending' AND next_at <= $1
  ORDER BY next_at LIMIT $3 FOR UPDATE SKIP LOCKED
) due, webhook_subscriptions s
WHERE d.id = due.id AND s.id = d.subscription_id
RETURNING d.id, d.body, d.attempts, s.url, s.secret`;

type Outcome = { ok: true; status: number } | { ok: false; status: number | null; error: string };

export function createDeliverer(
  pool: pg.Pool,
  settings: DelivererSettings = DEFAULT_DELIVERER,
  options: {
    now?: () => number;
    resolve?: AddressCheck['resolve'];
    log?: (line: string) => void;
  } = {},
) {
  const now = options.now ?? Date.now;
  const check: AddressCheck = {
    permits: settings.allowPrivate ? () => true : isPublicAddress,
    ...(options.resolve && { resolve: options.resolve }),
  };
  let timer: ReturnType<typeof setTimeout> | undefined;
  let running: Promise<unknown> | undefined;
  let stopped = true;
  // A notice came while a look was running: look again as soon as it ends.
  let woken = false;
  let listener: pg.PoolClient | null = null;
  let listening: Promise<void> | null = null;

  /** One session hears the outbox's notices; lost, the next look listens again. */
  const listen = () =>
    (listening ??= pool.connect().then(
      async (client) => {
        client.on('notification', wake);
        client.on('error', () => void dropListener(client, true));
        try {
          await client.query(`LISTEN ${DELIVERIES_CHANNEL}`);
          listener = client;
          if (stopped) await dropListener(client, false);
        } catch {
          void dropListener(client, true);
        }
      },
      (error: unknown) => {
        listening = null;
        options.log?.(`Webhooks: cannot listen for new deliveries: ${(error as Error).message}`);
      },
    ));

  function dropListener(client: pg.PoolClient, broken: boolean): Promise<void> {
    if (listener === client) listener = null;
    listening = null;
    client.removeAllListeners('notification');
    if (broken) {
      client.release(true);
      return Promise.resolve();
    }
    return client.query(`UNLISTEN ${DELIVERIES_CHANNEL}`).then(
      () => client.release(),
      () => client.release(true),
    );
  }

  function wake() {
    if (stopped) return;
    if (timer === undefined) {
      woken = true;
      return;
    }
    clearTimeout(timer);
    timer = undefined;
    loop();
  }

  async function record(claimed: Claimed, outcome: Outcome) {
    if (outcome.ok) {
      await pool.query(
        `UPDATE webhook_deliveries SET status = 'delivered', delivered_at = $2, last_status = $3,
           last_error = NULL WHERE id = $1`,
        [claimed.id, now(), outcome.status],
      );
      return;
    }
    const last = claimed.attempts >= settings.maxAttempts;
    await pool.query(
      `UPDATE webhook_deliveries SET status = $2, next_at = $3, last_status = $4, last_error = $5
       WHERE id = $1`,
      [
        claimed.id,
        last ? 'failed' : 'pending',
        now() + retryDelay(claimed.attempts, settings),
        outcome.status,
        outcome.error,
      ],
    );
  }

  /** Claims and sends the deliveries due now; answers how many it sent. */
  async function runOnce(): Promise<number> {
    const at = now();
    const { rows } = await pool.query<Claimed>(CLAIM, [
      at,
      // Past this, the claim has lapsed: the send is over, one way or another.
      at + settings.timeoutMs * 2,
      settings.batch,
    ]);
    await Promise.all(
      rows.map(async (claimed) => record(claimed, await send(claimed, settings, check, now))),
    );
    return rows.length;
  }

  /** How long until the next pending delivery comes due (a retry), at most `pollMs`. */
  async function untilDue(): Promise<number> {
    const { rows } = await pool.query<{ next: string | null }>(
      `SELECT min(next_at) AS next FROM webhook_deliveries WHERE status = 'pending'`,
    );
    const next = rows[0]?.next;
    if (next === null || next === undefined) return settings.pollMs;
    return Math.max(0, Math.min(settings.pollMs, Number(next) - now()));
  }

  const loop = () => {
    if (stopped) return;
    if (!listener) void listen();
    woken = false;
    running = runOnce()
      .then(async (sent) => (sent >= settings.batch ? 0 : await untilDue()))
      .catch((error: unknown) => {
        options.log?.(`Webhooks: ${(error as Error).message}`);
        return settings.pollMs;
      })
      .then((waitMs) => {
        if (stopped) return;
        // A notice during the look: what it told of may not have been due when looked at.
        if (woken) waitMs = 0;
        timer = setTimeout(() => {
          timer = undefined;
          loop();
        }, waitMs);
      });
  };

  return {
    runOnce,
    start() {
      if (!stopped) return;
      stopped = false;
      loop();
    },
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
      await listening;
      if (listener) await dropListener(listener, false);
    },
  };
}

export type Deliverer = ReturnType<typeof createDeliverer>;

/** One attempt: the receiver's address checked and pinned, the body posted, signed. */
async function send(
  claimed: Claimed,
  settings: DelivererSettings,
  check: AddressCheck,
  now: () => number,
): Promise<Outcome> {
  const signal = AbortSignal.timeout(settings.timeoutMs);
  try {
    const url = checkedReceiverUrl(claimed.url);
    if (typeof url === 'string') return { ok: false, status: null, error: url };
    const address = await pinnedAddress(url.hostname, check);
    const timestamp = Math.floor(now() / 1000);
    const status = await post(
      url,
      address,
      signal,
      {
        'content-type': 'application/json',
        'user-agent': 'token-activity-dashboard-webhooks',
        'webhook-id': claimed.id,
        'webhook-timestamp': String(timestamp),
        'webhook-signature': sign(claimed.secret, claimed.id, timestamp, claimed.body),
      },
      claimed.body,
    );
    if (status >= 200 && status < 300) return { ok: true, status };
    return { ok: false, status, error: `the receiver answered ${status}` };
  } catch (error) {
    if (error instanceof AddressRefused) return { ok: false, status: null, error: error.message };
    if (signal.aborted) {
      return { ok: false, status: null, error: `no answer within ${settings.timeoutMs} ms` };
    }
    const code = (error as { code?: unknown }).code;
    return {
      ok: false,
      status: null,
      error: `could not be sent (${typeof code === 'string' ? code : (error as Error).message})`,
    };
  }
}

// What is read of a receiver's answer: its status; the body is drained, at most this much.
const MAX_ANSWER_BYTES = 64 * 1024;

function post(
  url: URL,
  address: string,
  signal: AbortSignal,
  headers: Record<string, string>,
  body: string,
): Promise<number> {
  const request = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise<number>((resolve, reject) => {
    const outgoing = request(
      url,
      {
        method: 'POST',
        lookup: lookupAs(address),
        ...(url.protocol === 'https:' &&
          !isAddressLiteral(url.hostname) && { servername: url.hostname }),
        agent: false,
        signal,
        headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) },
      },
      (response) => {
        let size = 0;
        response.on('data', (chunk: Buffer) => {
          size += chunk.byteLength;
          if (size > MAX_ANSWER_BYTES) response.destroy();
        });
        response.on('close', () => resolve(response.statusCode ?? 0));
        response.on('error', () => resolve(response.statusCode ?? 0));
      },
    );
    outgoing.on('error', reject);
    outgoing.end(body);
  });
}
