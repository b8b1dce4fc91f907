import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { clientKey } from '../../../src/server/proxy/client-address';
import { createRateLimiter } from '../../../src/server/proxy/rate-limit';
import { fakeUpstream } from './fake-upstream';
import { useProxies } from './proxy-harness';
import { fromSocket } from '../../support/socket-bindings';

const { proxyOn } = useProxies();

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(new Date('2025-01-01T00:00:00Z'));
});
afterEach(() => vi.useRealTimers());

describe('token bucket per client', () => {
  it('allows the burst, then the sustained rate, and says when to come back', () => {
    const limiter = createRateLimiter({ perMinute: 60, burst: 3 });
    expect([1, 2, 3].map(() => limiter.take('a'))).toEqual([0, 0, 0]);
    expect(limiter.take('a')).toBe(1);
    expect(limiter.take('b')).toBe(0);
    vi.advanceTimersByTime(1000);
    expect(limiter.take('a')).toBe(0);
    expect(limiter.take('a')).toBe(1);
  });

  it('forgets clients once their bucket is full again', () => {
    const limiter = createRateLimiter({ perMinute: 60, burst: 2 });
    for (let i = 0; i < 1000; i += 1) limiter.take(`10.0.${i >> 8}.${i & 255}`);
    expect(limiter.clients()).toBe(1000);
    vi.advanceTimersByTime(2000);
    limiter.take('new');
    expect(limiter.clients()).toBe(1);
  });

  it('tracks a bounded number of clients however many addresses appear', () => {
    const limiter = createRateLimiter({ perMinute: 60, burst: 2, maxClients: 100 });
    for (let i = 0; i < 10_000; i += 1) limiter.take(`client-${i}`);
    expect(limiter.clients()).toBe(100);
  });
});

describe('client keys', () => {
  it.each([
    ['1.2.3.4', '1.2.3.4'],
    ['::ffff:1.2.3.4', '1.2.3.4'],
    ['2001:db8:1:2:3:4:5:6', '2001:db8:1:2::/64'],
    ['2001:DB8:1:2::9', '2001:db8:1:2::/64'],
    ['2001:db8:0001:0002:aaaa::1', '2001:db8:1:2::/64'],
    ['::1', '0:0:0:0::/64'],
    ['fe80::1%eth0', 'fe80:0:0:0::/64'],
    ['1.2.3.4:5678', '1.2.3.4'],
    ['001.002.003.004', '1.2.3.4'],
    ['[::ffff:1.2.3.4]:443', '1.2.3.4'],
    ['::ffff:0102:0304', '1.2.3.4'],
    ['[2001:db8:1:2::9]', '2001:db8:1:2::/64'],
    ['[2001:db8:1:2::9]:8080', '2001:db8:1:2::/64'],
  ])('%s → %s', (address, key) => {
    expect(clientKey(address)).toBe(key);
  });

  it.each([
    'unknown',
    '',
    '1.2.3',
    '1.2.3.4.5',
    '256.1.1.1',
    '0x7f.0.0.1',
    '1.2.3.4:port',
    '[1.2.3.4]',
    '2001:db8::1::2',
    '<script>',
  ])('%j is not an address', (text) => {
    expect(clientKey(text)).toBeUndefined();
  });
});

describe('rate limit on the API', () => {
  const limited = async (trustedProxyHops = 0) => {
    const { upstream, calls } = fakeUpstream();
    const { app } = await proxyOn(upstream, {
      proxy: { rateLimit: { perMinute: 60, burst: 3 }, trustedProxyHops },
    });
    return { app, calls };
  };

  /** The statuses of one request per `X-Forwarded-For` value, all from the same peer. */
  async function statusesForwarded(
    app: Awaited<ReturnType<typeof limited>>['app'],
    forwarded: string[],
    peer = '10.0.0.1',
  ) {
    const statuses = [];
    for (const entry of forwarded) {
      const headers = { 'x-forwarded-for': entry };
      statuses.push((await app.request('/api/v1/contracts', { headers }, fromSocket(peer))).status);
    }
    return statuses;
  }

  it('answers 429 in our error shape, a kind of its own, with Retry-After once a client is over its limit', async () => {
    const { app } = await limited();
    for (let i = 0; i < 3; i += 1) {
      const ok = await app.request('/api/v1/contracts', {}, fromSocket('1.2.3.4'));
      expect(ok.status).toBe(200);
    }
    const refused = await app.request('/api/v1/contracts', {}, fromSocket('1.2.3.4'));
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe('1');
    expect(refused.headers.get('cache-control')).toBe('no-store');
    // Our own limit, never to be taken for the service throttling the server.
    expect(await refused.json()).toEqual({
      error: {
        kind: 'client_rate_limited',
        status: 429,
        message:
          'This dashboard answers each address a limited number of requests a minute, and yours has asked for more.',
        retryAfterSeconds: 1,
      },
    });
    const other = await app.request('/api/v1/contracts', {}, fromSocket('5.6.7.8'));
    expect(other.status).toBe(200);
  });

  it('counts every API request, stored, invalid or not', async () => {
    const { app, calls } = await limited();
    await app.request('/api/meta', {}, fromSocket('1.2.3.4'));
    await app.request('/api/v1/nope', {}, fromSocket('1.2.3.4'));
    await app.request('/api/v1/contracts', {}, fromSocket('1.2.3.4'));
    const refused = await app.request('/api/v1/contracts', {}, fromSocket('1.2.3.4'));
    expect(refused.status).toBe(429);
    expect(calls).toHaveLength(1);
  });

  it('ignores X-Forwarded-For unless told to trust a proxy', async () => {
    const { app } = await limited();
    const forged = ['9.9.9.0', '9.9.9.1', '9.9.9.2', '9.9.9.3'];
    expect(await statusesForwarded(app, forged, '1.2.3.4')).toEqual([200, 200, 200, 429]);
  });

  it('behind a trusted proxy, uses the address that proxy saw, not what the client wrote', async () => {
    const { app } = await limited(1);
    // The client forges the left entry; the proxy appends the real one.
    const entries = [0, 1, 2, 3].map((i) => `9.9.9.${i}, 7.7.7.7`);
    expect(await statusesForwarded(app, entries)).toEqual([200, 200, 200, 429]);
    expect(await statusesForwarded(app, ['8.8.8.8'])).toEqual([200]);
  });

  it('behind a trusted proxy, counts every spelling of one address as one client', async () => {
    const { app } = await limited(1);
    const spellings = [
      '1.2.3.4',
      '1.2.3.4:5678',
      '001.002.003.004',
      '::ffff:1.2.3.4',
      '[::ffff:1.2.3.4]:443',
    ];
    expect(await statusesForwarded(app, spellings)).toEqual([200, 200, 200, 429, 429]);
  });

  it('behind a trusted proxy, counts one IPv6 /64 as one client', async () => {
    const { app } = await limited(1);
    const oneNetwork = [
      '2001:db8:1:2::1',
      '[2001:db8:1:2::2]:443',
      '2001:db8:1:2:ffff::3',
      '2001:db8:1:2::4',
    ];
    expect(await statusesForwarded(app, oneNetwork)).toEqual([200, 200, 200, 429]);
    expect(await statusesForwarded(app, ['2001:db8:1:3::1'])).toEqual([200]);
  });

  it('does not believe a forwarded entry that is not an address: the peer is the client', async () => {
    const { app } = await limited(1);
    const forged = ['a', 'b', '1.2.3.4.5', '0x7f.0.0.1'];
    expect(await statusesForwarded(app, forged, '10.0.0.9')).toEqual([200, 200, 200, 429]);
  });

  it('limits nobody when called in-process, without a socket', async () => {
    const { app } = await limited();
    for (let i = 0; i < 10; i += 1) {
      expect((await app.request('/api/v1/contracts')).status).toBe(200);
    }
  });

  it('is off with a limit of 0', async () => {
    const { upstream } = fakeUpstream();
    const { app } = await proxyOn(upstream, { proxy: { rateLimit: { perMinute: 0, burst: 1 } } });
    for (let i = 0; i < 100; i += 1) {
      const response = await app.request('/api/v1/contracts', {}, fromSocket('1.2.3.4'));
      expect(response.status).toBe(200);
    }
  });

  it('is on by default', async () => {
    const { upstream } = fakeUpstream();
    // What composeServer does when told nothing (the test proxy turns the limit off).
    const { app } = await proxyOn(upstream, { proxy: { rateLimit: undefined } });
    const statuses = new Set<number>();
    for (let i = 0; i < 100; i += 1) {
      statuses.add((await app.request('/api/meta', {}, fromSocket('1.2.3.4'))).status);
    }
    expect([...statuses].sort()).toEqual([200, 429]);
  });
});
