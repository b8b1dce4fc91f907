import pg from 'pg';
import { describe, expect, it, vi } from 'vitest';
import { CURRENCIES } from '../../../src/lib/price';
import { rollingMedian } from '../../../src/lib/rolling-median';
import { rebuildContract } from '../../../src/server/index/rebuild';
import { verify } from '../../../src/server/webhooks/signature';
import {
  CONTRACT,
  hex64,
  ingestPages,
  recordsOf,
  WALLETS,
  ZERO,
  type Change,
} from '../index/history';
import { useWebhooks } from './webhook-harness';

/**
 * Webhooks end to end on the test PostgreSQL: records ingested as the record log commits
 * them, the rules' deliveries written to the outbox in that transaction, sent by the
 * deliverer to a local receiver, signed, retried, once per event.
 */
const { open, receiver } = useWebhooks();
const [W0, W1, W2, W3] = WALLETS as [string, string, string, string];
const T = 1_700_000_000;
const ETH = CURRENCIES[0]!.address;
const STRK = CURRENCIES[1]!.address;

const mint = (token: number, to: string, ts: number, tx: number): Change => ({
  kind: 'mint',
  token,
  from: ZERO,
  to,
  ts,
  tx: hex64(BigInt(tx)),
});
const move = (token: number, from: string, to: string, ts: number, tx: number): Change => ({
  kind: 'transfer',
  token,
  from,
  to,
  ts,
  tx: hex64(BigInt(tx)),
});
const sale = (
  token: number,
  from: string,
  to: string,
  ts: number,
  tx: number,
  price: bigint,
  currency = ETH,
): Change => ({ ...move(token, from, to, ts, tx), kind: 'sale', price, currency });

/** Each record on a page of its own, as the log may commit them (a sale's two records apart). */
const onePerPage = (changes: Change[]) => recordsOf(changes).map((record) => [record]);

describe('webhooks', () => {
  it('reach a local receiver signed, once per event after failed attempts, from two deliverers', async () => {
    const hooks = await open();
    const target = await receiver(2);
    const { id, secret } = await hooks.subscribe(target.url, { kind: 'wallet', wallet: W1 });
    const changes = [
      mint(1, W0, T + 1, 1),
      move(1, W0, W1, T + 2, 2),
      sale(1, W1, W2, T + 3, 3, 5n * 10n ** 18n),
      mint(2, W3, T + 4, 4),
    ];
    const pages = onePerPage(changes);
    await ingestPages(hooks.pool, pages);
    // The same records again (a head read twice, a walk round a dead cursor): nothing new.
    await ingestPages(hooks.pool, [pages.flat()]);
    const queued = await hooks.outbox();
    const mine = changes.filter((change) => change.from === W1 || change.to === W1);
    expect(queued.map((each) => each.body.data.event.transactionHash).sort()).toEqual(
      mine.map((change) => change.tx).sort(),
    );
    // Two servers' deliverers on one database: a delivery is never claimed by both.
    hooks.deliverer().start();
    hooks.deliverer().start();
    await vi.waitFor(
      async () => {
        const log = await hooks.call('GET', `/api/webhooks/${id}/deliveries`);
        expect(log.body.deliveries.map((d: { status: string }) => d.status)).toEqual([
          'delivered',
          'delivered',
        ]);
      },
      { timeout: 30_000, interval: 50 },
    );
    const ids = queued.map((each) => each.id).sort();
    expect([...new Set(target.received.map((each) => each.id))].sort()).toEqual(ids);
    for (const deliveryId of ids) {
      const attempts = target.received.filter((each) => each.id === deliveryId);
      expect(attempts.map((each) => each.status)).toEqual([500, 500, 200]);
    }
    for (const each of target.received) {
      const headers = { id: each.id, timestamp: each.timestamp, signature: each.signature };
      expect(verify(secret, headers, each.body)).toBe(true);
      // Another body, or another secret, does not verify.
      expect(verify(secret, headers, each.body.replace('wallet', 'walle7'))).toBe(false);
      expect(
        verify(`whsec_${Buffer.from('x'.repeat(32)).toString('base64')}`, headers, each.body),
      ).toBe(false);
      expect(JSON.parse(each.body)).toMatchObject({ type: 'wallet', id: each.id, webhook: id });
    }
    const log = await hooks.call('GET', `/api/webhooks/${id}/deliveries`);
    for (const delivery of log.body.deliveries) {
      expect(delivery).toMatchObject({ attempts: 3, lastStatus: 200, lastError: null });
    }
    const list = await hooks.call('GET', '/api/webhooks');
    expect(list.body.webhooks).toEqual([
      expect.objectContaining({ id, deliveries: { pending: 0, delivered: 2, failed: 0 } }),
    ]);
    expect(JSON.stringify(list.body)).not.toContain(secret);
  });

  it('are sent when the outbox tells of them, and retried when due, not at the next poll', async () => {
    const hooks = await open();
    const target = await receiver(1);
    const { id } = await hooks.subscribe(target.url, { kind: 'wallet', wallet: W0 });
    // A poll far longer than the test's bound: only the notice, and the retry's due time,
    // can have it sent within it.
    const deliverer = hooks.deliverer({ pollMs: 10 * 60_000, retryBaseMs: 200 });
    deliverer.start();
    // The deliverer's first look finds nothing; it listens from then on.
    await vi.waitFor(
      async () => {
        const { rows } = await hooks.pool.query(
          "SELECT 1 FROM pg_stat_activity WHERE query LIKE 'LISTEN webhook_deliveries_due%'",
        );
        expect(rows).toHaveLength(1);
      },
      { timeout: 30_000, interval: 20 },
    );
    await ingestPages(hooks.pool, onePerPage([mint(1, W0, T + 1, 1)]));
    await vi.waitFor(
      async () => {
        const log = await hooks.call('GET', `/api/webhooks/${id}/deliveries`);
        expect(log.body.deliveries).toEqual([
          expect.objectContaining({ status: 'delivered', attempts: 2, lastStatus: 200 }),
        ]);
      },
      { timeout: 60_000, interval: 50 },
    );
    expect(target.received.map((each) => each.status)).toEqual([500, 200]);
  });

  it('are not looked up while none is registered, and delivered once one is', async () => {
    const hooks = await open();
    const query = vi.spyOn(pg.Client.prototype, 'query');
    const lookups = () =>
      query.mock.calls.filter(
        ([text]) => typeof text === 'string' && /FROM webhook_subscriptions\s+WHERE/.test(text),
      ).length;
    try {
      await ingestPages(hooks.pool, onePerPage([mint(1, W0, T + 1, 1)]));
      expect(query).toHaveBeenCalled();
      expect(lookups()).toBe(0);
      const target = await receiver(1);
      const { id } = await hooks.subscribe(target.url, { kind: 'wallet', wallet: W0 });
      await ingestPages(hooks.pool, onePerPage([move(1, W0, W1, T + 2, 2)]));
      expect(lookups()).toBe(1);
      const log = await hooks.call('GET', `/api/webhooks/${id}/deliveries`);
      expect(log.body.deliveries).toEqual([
        expect.objectContaining({ event: 'wallet', status: 'pending' }),
      ]);
    } finally {
      query.mockRestore();
    }
  });

  it('gives up after the last attempt, and says why in the log', async () => {
    const hooks = await open();
    const target = await receiver(100);
    const { id } = await hooks.subscribe(target.url, { kind: 'wallet', wallet: W0 });
    await ingestPages(hooks.pool, onePerPage([mint(1, W0, T + 1, 1)]));
    hooks.deliverer({ maxAttempts: 3 }).start();
    await vi.waitFor(
      async () => {
        const log = await hooks.call('GET', `/api/webhooks/${id}/deliveries`);
        expect(log.body.deliveries).toEqual([
          expect.objectContaining({
            status: 'failed',
            attempts: 3,
            lastStatus: 500,
            lastError: 'the receiver answered 500',
            nextAttemptAt: null,
          }),
        ]);
      },
      { timeout: 30_000, interval: 50 },
    );
    expect(target.received).toHaveLength(3);
  });

  it("fires on a sale at least k times the rolling median of the currency's sales before it", async () => {
    const hooks = await open();
    const window = 5;
    const factor = 2;
    await hooks.subscribe('http://127.0.0.1:9/', {
      kind: 'sale-above-median',
      collection: CONTRACT,
      factor,
      window,
    });
    // Prices from a small generator, a spike now and then, two currencies mixed.
    let seed = 7;
    const next = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31);
    const changes: Change[] = [];
    for (let i = 0; i < 60; i += 1) {
      const spike = next() % 6 === 0 ? 4n : 1n;
      const price = BigInt(10 + (next() % 20)) * spike;
      const currency = next() % 3 === 0 ? STRK : ETH;
      changes.push(
        sale(i + 1, WALLETS[i % 5]!, WALLETS[(i + 1) % 5]!, T + 60 * i, i + 1, price, currency),
      );
    }
    const records = recordsOf(changes);
    const pages: (typeof records)[] = [];
    for (let at = 0; at < records.length; at += 7) pages.push(records.slice(at, at + 7));
    await ingestPages(hooks.pool, pages);
    // Worked out apart: per currency, the median of the `window` sales before each sale.
    const expected: string[] = [];
    for (const currency of [ETH, STRK]) {
      const sales = changes.filter((change) => change.currency === currency);
      const medians = rollingMedian(
        sales.map((change) => Number(change.price)),
        window,
      );
      sales.forEach((change, index) => {
        const before = index > 0 ? medians[index - 1] : null;
        if (before !== null && before !== undefined && Number(change.price) >= factor * before) {
          expected.push(change.tx);
        }
      });
    }
    expect(expected.length).toBeGreaterThan(3);
    const fired = await hooks.outbox();
    expect(fired.map((each) => each.body.data.event.transactionHash).sort()).toEqual(
      expected.sort(),
    );
    for (const each of fired) {
      expect(BigInt(each.body.data.event.price)).toBeGreaterThanOrEqual(
        BigInt(each.body.data.median) * BigInt(factor),
      );
    }
  });

  it('fires on flagged sales, holders crossing N either way, and a view, and on nothing older', async () => {
    const hooks = await open();
    const url = 'http://127.0.0.1:9/';
    const flagged = await hooks.subscribe(url, { kind: 'flagged-sale', collection: CONTRACT });
    const holders = await hooks.subscribe(url, {
      kind: 'holders',
      collection: CONTRACT,
      threshold: 3,
    });
    const view = await hooks.subscribe(url, {
      kind: 'view',
      view: `/contracts/${CONTRACT}?kind=sale&currency=ETH`,
    });
    const later = await hooks.subscribe(url, { kind: 'wallet', wallet: W0 });
    // Made after every change below: none of them is news to it.
    await hooks.pool.query('UPDATE webhook_subscriptions SET created_at = $1 WHERE id = $2', [
      T + 86_400,
      later.id,
    ]);
    const changes = [
      mint(1, W0, T + 1, 1),
      mint(2, W1, T + 2, 2),
      // Three holders: up.
      mint(3, W2, T + 3, 3),
      sale(1, W0, W3, T + 4, 4, 10n ** 18n),
      // Token 1 back to W0 within 30 days: a round trip, both sales flagged.
      sale(1, W3, W0, T + 5, 5, 10n ** 18n),
      // W3 holds nothing again; W2 gives its token to W1: two holders, down.
      move(3, W2, W1, T + 6, 6),
      // W1 sells one of its two to W2: three again, up.
      sale(2, W1, W2, T + 7, 7, 2n * 10n ** 18n, STRK),
    ];
    await ingestPages(hooks.pool, onePerPage(changes));
    const fired = await hooks.outbox();
    const of = (id: string) => fired.filter((each) => each.webhook === id);
    const txs = (id: string) =>
      of(id)
        .map((each) => each.body.data.event.transactionHash)
        .sort();
    expect(txs(flagged.id)).toEqual([hex64(4n), hex64(5n)]);
    for (const each of of(flagged.id))
      expect(each.body.data.event.washFlags.length).toBeGreaterThan(0);
    // Holders after each change, counted from the changes themselves.
    const owners = new Map<number, string>();
    const counts = changes.map((change) => {
      owners.set(change.token, change.to);
      return new Set(owners.values()).size;
    });
    const crossings = counts.flatMap((count, index) => {
      const before = index === 0 ? 0 : counts[index - 1]!;
      if (before < 3 && count >= 3) return [{ direction: 'up', holders: count, before }];
      if (before >= 3 && count < 3) return [{ direction: 'down', holders: count, before }];
      return [];
    });
    expect(crossings.map((each) => each.direction)).toEqual(['up', 'down', 'up']);
    expect(of(holders.id).map((each) => each.body.data)).toEqual(
      crossings.map((each) =>
        expect.objectContaining({ ...each, threshold: 3, collection: CONTRACT }),
      ),
    );
    expect(txs(view.id)).toEqual(
      changes
        .filter((change) => change.kind === 'sale' && change.currency === ETH)
        .map((change) => change.tx)
        .sort(),
    );
    expect(of(later.id)).toEqual([]);
    // A rebuild of the contract from the log adds nothing to the outbox.
    const before = fired.length;
    const client = await hooks.pool.connect();
    try {
      await client.query('BEGIN');
      await rebuildContract(client, CONTRACT);
      await client.query('COMMIT');
    } finally {
      client.release();
    }
    expect(await hooks.outbox()).toHaveLength(before);
  });
});

describe('webhook routes', () => {
  const resolve = async (host: string) =>
    ({ 'loopback.example': ['127.0.0.1'], 'mixed.example': ['93.184.216.34', '10.1.2.3'] })[
      host
    ] ?? ['93.184.216.34'];

  it('refuse private, loopback and link-local receivers and other schemes without the setting', async () => {
    const hooks = await open({ allowPrivate: false, resolve });
    const rule = { kind: 'wallet', wallet: W0 };
    const refused = /not a public address.*WEBHOOK_ALLOW_PRIVATE/;
    const notHttp = /url must be an http:\/\/ or https:\/\/ URL/;
    const cases: [string, RegExp][] = [
      ...[
        'http://127.0.0.1:8080/hook',
        'http://10.0.0.1/hook',
        'https://192.168.1.1/hook',
        'http://169.254.169.254/latest/meta-data',
        'http://[::1]/hook',
        'http://[fe80::1]/hook',
        'http://[::ffff:127.0.0.1]/hook',
        'http://loopback.example/hook',
        'https://mixed.example/hook',
      ].map((url): [string, RegExp] => [url, refused]),
      ...['ftp://hooks.example/x', 'file:///etc/passwd', 'javascript:alert(1)', 'not a url'].map(
        (url): [string, RegExp] => [url, notHttp],
      ),
    ];
    for (const [url, message] of cases) {
      const answer = await hooks.call('POST', '/api/webhooks', { url, rule });
      expect(answer.status, url).toBe(400);
      expect(answer.body.error.message, url).toMatch(message);
    }
    const made = await hooks.call('POST', '/api/webhooks', {
      url: 'https://hooks.example/x',
      rule,
    });
    expect(made.status).toBe(201);
    expect(made.body.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
  });

  it('say what is wrong with a rule, a body or a token; delete a webhook and its log', async () => {
    const hooks = await open();
    const url = 'http://127.0.0.1:9/';
    const cases: [unknown, RegExp][] = [
      ['{"url":', /The body must be JSON/],
      [{ url, rule: { kind: 'weather' } }, /rule.kind must be view, sale-above-median/],
      [{ url, rule: { kind: 'holders', collection: CONTRACT, threshold: 0 } }, /threshold must be/],
      [
        { url, rule: { kind: 'sale-above-median', collection: CONTRACT, factor: 2, window: 4 } },
        /window must be an odd/,
      ],
      [{ url, rule: { kind: 'wallet', wallet: 'bob' } }, /must be a Starknet address/],
      [{ url, rule: { kind: 'view', view: '/api-docs' } }, /rule.view: A feed follows/],
      [{ url, rule: { kind: 'view', view: `/contracts/${CONTRACT}?kind=lunch` } }, /kind/],
      [{ url, rule: { kind: 'wallet', wallet: W0 }, extra: 1 }, /Unknown parameter: extra/],
    ];
    for (const [body, message] of cases) {
      const answer = await hooks.call('POST', '/api/webhooks', body);
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect(answer.body.error.message).toMatch(message);
    }
    const without = await hooks.call('GET', '/api/webhooks', undefined, '');
    expect(without.status).toBe(401);
    expect(without.body.error).toMatchObject({ kind: 'unauthorized' });
    const wrong = await hooks.call('GET', '/api/webhooks', undefined, 'operator-token-for-test');
    expect(wrong.status).toBe(401);
    const { id } = await hooks.subscribe(url, { kind: 'wallet', wallet: W0 });
    await ingestPages(hooks.pool, onePerPage([mint(1, W0, T + 1, 1)]));
    expect(await hooks.outbox()).toHaveLength(1);
    expect((await hooks.call('DELETE', `/api/webhooks/${id}`)).body).toEqual({ deleted: id });
    expect(await hooks.outbox()).toHaveLength(0);
    expect((await hooks.call('DELETE', `/api/webhooks/${id}`)).status).toBe(404);
    expect((await hooks.call('GET', `/api/webhooks/${id}/deliveries`)).status).toBe(404);
    expect((await hooks.call('GET', '/api/webhooks/abc/deliveries')).status).toBe(400);
  });
});
