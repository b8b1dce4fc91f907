import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../../src/server/config';

const real = { TOKEN_EVENTS_API_URL: 'https://api.example.test/v0/', TOKEN_EVENTS_API_KEY: 'k' };

describe('server configuration', () => {
  it('runs on the embedded sample service with safe defaults when nothing is set', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      host: '127.0.0.1',
      port: 4173,
      upstream: { kind: 'sample', profile: 'deployed', seed: 1, live: true },
      proxy: {
        timeoutMs: 15_000,
        cache: { firstPageTtlMs: 5_000, cursorPageTtlMs: 600_000, maxBytes: 64 * 1024 * 1024 },
        gate: { concurrency: 4, queueTimeoutMs: 10_000, ratePerSecond: 0, rateBurst: 2 },
        rateLimit: { perMinute: 300, burst: 60 },
        trustedProxyHops: 0,
      },
    });
  });

  it('uses the real service, capped at its basic plan rate, when URL and key are set', () => {
    const config = loadConfig(real);
    expect(config.upstream).toEqual({
      kind: 'real',
      url: 'https://api.example.test/v0',
      apiKey: 'k',
    });
    expect(config.proxy.gate).toMatchObject({ ratePerSecond: 5, rateBurst: 2 });
  });

  it('reads every tuning variable', () => {
    const config = loadConfig({
      ...real,
      PORT: '0',
      HOST: '0.0.0.0',
      UPSTREAM_TIMEOUT_MS: '2000',
      CACHE_TTL_SECONDS: '0',
      CACHE_CURSOR_TTL_SECONDS: '60',
      CACHE_MAX_MB: '8',
      UPSTREAM_CONCURRENCY: '2',
      UPSTREAM_QUEUE_TIMEOUT_MS: '500',
      UPSTREAM_RATE_PER_SECOND: '0.5',
      UPSTREAM_RATE_BURST: '1',
      RATE_LIMIT_PER_MINUTE: '0',
      RATE_LIMIT_BURST: '5',
      TRUST_PROXY: '2',
      SHUTDOWN_TIMEOUT_MS: '1000',
    });
    expect(config).toMatchObject({
      host: '0.0.0.0',
      port: 0,
      shutdownTimeoutMs: 1000,
      proxy: {
        timeoutMs: 2000,
        cache: { firstPageTtlMs: 0, cursorPageTtlMs: 60_000, maxBytes: 8 * 1024 * 1024 },
        gate: { concurrency: 2, queueTimeoutMs: 500, ratePerSecond: 0.5, rateBurst: 1 },
        rateLimit: { perMinute: 0, burst: 5 },
        trustedProxyHops: 2,
      },
    });
  });

  it('sets where the sample timeline ends, and turns its new events off', () => {
    expect(loadConfig({ SAMPLE_LIVE: 'off', SAMPLE_ANCHOR: '1751241600' }).upstream).toEqual({
      kind: 'sample',
      profile: 'deployed',
      seed: 1,
      live: false,
      anchor: 1_751_241_600,
    });
    expect(loadConfig({ SAMPLE_LIVE: 'ON' }).upstream).not.toHaveProperty('anchor');
  });

  it.each([
    ['true', 1],
    ['FALSE', 0],
    ['', 0],
    ['1', 1],
  ])('TRUST_PROXY=%s means %i trusted proxies', (value, hops) => {
    expect(loadConfig({ TRUST_PROXY: value }).proxy.trustedProxyHops).toBe(hops);
  });

  it.each([
    [{ TOKEN_EVENTS_API_URL: 'https://api.example.test' }, /TOKEN_EVENTS_API_KEY is not/],
    [{ ...real, TOKEN_EVENTS_API_KEY: '   ' }, /TOKEN_EVENTS_API_KEY is not/],
    [{ ...real, TOKEN_EVENTS_API_URL: 'not a url' }, /not a valid URL/],
    [{ ...real, TOKEN_EVENTS_API_URL: 'api.example.test' }, /not a valid URL/],
    [{ ...real, TOKEN_EVENTS_API_URL: 'ftp://api.example.test' }, /must start with https/],
    [{ ...real, TOKEN_EVENTS_API_URL: 'https://u:p@api.example.test' }, /without query/],
    [{ ...real, TOKEN_EVENTS_API_URL: 'https://api.example.test/?key=1' }, /without query/],
    [{ SAMPLE_PROFILE: 'prod' }, /SAMPLE_PROFILE/],
    [{ SAMPLE_LIVE: 'no' }, /SAMPLE_LIVE must be "on" or "off"/],
    [{ SAMPLE_ANCHOR: '12' }, /SAMPLE_ANCHOR must be a whole number/],
    [{ SAMPLE_ANCHOR: 'now' }, /SAMPLE_ANCHOR/],
    [{ PORT: '70000' }, /PORT must be a whole number from 0 to 65535/],
    [{ PORT: 'eighty' }, /PORT must be a whole number/],
    [{ UPSTREAM_CONCURRENCY: '0' }, /UPSTREAM_CONCURRENCY/],
    [{ UPSTREAM_CONCURRENCY: '1.5' }, /UPSTREAM_CONCURRENCY must be a whole number/],
    [{ UPSTREAM_RATE_PER_SECOND: '-1' }, /UPSTREAM_RATE_PER_SECOND must be a number/],
    [{ RATE_LIMIT_PER_MINUTE: 'lots' }, /RATE_LIMIT_PER_MINUTE/],
    [{ CACHE_MAX_MB: '-1' }, /CACHE_MAX_MB/],
    [{ TRUST_PROXY: 'yes' }, /TRUST_PROXY/],
  ])('refuses %j with a clear message', (env, message) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(message);
  });

  it('never puts the key in an error message', () => {
    expect.assertions(1);
    try {
      loadConfig({ TOKEN_EVENTS_API_URL: 'ftp://x', TOKEN_EVENTS_API_KEY: 'secret-key-123' });
    } catch (error) {
      expect(String(error)).not.toContain('secret-key-123');
    }
  });
});
