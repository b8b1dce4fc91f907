import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../../src/server/config';
import { DEFAULT_CLIENT_SHARE } from '../../../src/server/http/client-share';

const PRIMARY = 'postgres://dashboard:secret@db.internal:5432/events';
const REPLICAS = 'postgres://dashboard:secret@replica-1:5432/events, postgres://replica-2/events';
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
        gate: {
          concurrency: 4,
          queueTimeoutMs: 10_000,
          ratePerSecond: 0,
          maxCoolDownMs: 60_000,
          clientShare: 0.5,
        },
        rateLimit: { perMinute: 300, burst: 60 },
        trustedProxyHops: 0,
        images: { enabled: true, ipfsGateway: 'https://ipfs.io/ipfs/' },
        downloads: { perClient: 2, max: 8 },
        webhooks: { token: undefined, deliverer: { allowPrivate: false } },
      },
      data: {
        database: { kind: 'embedded', dataDir: '.data' },
        headIntervalMs: 5_000,
        monthlyQuota: 100_000,
      },
      index: {
        backgroundShare: 0.2,
        backgroundQuotaShare: 0.5,
        verifyShare: 0.02,
        verifyEveryMs: 30 * 86_400_000,
      },
      connections: {
        maxConnections: 1000,
        maxConnectionsPerAddress: 50,
        keepAliveTimeoutMs: 5_000,
        headersTimeoutMs: 10_000,
      },
      share: {
        costPerSecondMs: 1_000,
        costBurstMs: 30_000,
        costlyAtOnce: 2,
        atOnce: DEFAULT_CLIENT_SHARE.atOnce,
        inFlightPerClient: 12,
      },
      warnings: [],
    });
  });

  it('turns webhooks on with a token of 16 characters or more, private receivers by a flag', () => {
    const config = loadConfig({
      WEBHOOK_TOKEN: 'a-long-operator-token',
      WEBHOOK_ALLOW_PRIVATE: 'true',
    });
    expect(config.proxy.webhooks).toEqual({
      token: 'a-long-operator-token',
      deliverer: { allowPrivate: true },
    });
    expect(() => loadConfig({ WEBHOOK_TOKEN: 'short' })).toThrow(
      'WEBHOOK_TOKEN must be at least 16 characters',
    );
    expect(() => loadConfig({ WEBHOOK_ALLOW_PRIVATE: 'maybe' })).toThrow(
      'WEBHOOK_ALLOW_PRIVATE must be true or false.',
    );
  });

  it('uses the real service, capped at its basic plan rate, when URL and key are set', () => {
    const config = loadConfig(real);
    expect(config.upstream).toEqual({
      kind: 'real',
      url: 'https://api.example.test/v0',
      apiKey: 'k',
    });
    expect(config.proxy.gate).toMatchObject({ ratePerSecond: 5 });
  });

  it('reads every tuning variable', () => {
    const config = loadConfig({
      ...real,
      PORT: '0',
      HOST: '0.0.0.0',
      UPSTREAM_TIMEOUT_MS: '2000',
      UPSTREAM_CONCURRENCY: '2',
      UPSTREAM_QUEUE_TIMEOUT_MS: '500',
      UPSTREAM_RATE_PER_SECOND: '0.5',
      DATABASE_URL: 'postgres://dashboard:secret@db.internal:5432/events',
      HEAD_READ_SECONDS: '10',
      UPSTREAM_MONTHLY_QUOTA: '0',
      INDEX_BACKGROUND_SHARE: '0',
      INDEX_BACKGROUND_QUOTA_SHARE: '0.75',
      INDEX_VERIFY_SHARE: '0.1',
      INDEX_VERIFY_DAYS: '7.5',
      RATE_LIMIT_PER_MINUTE: '0',
      RATE_LIMIT_BURST: '5',
      TRUST_PROXY: '2',
      SHUTDOWN_TIMEOUT_MS: '1000',
      UPSTREAM_MAX_COOL_DOWN_SECONDS: '30',
      UPSTREAM_CLIENT_SHARE: '0.25',
      MAX_CONNECTIONS: '500',
      MAX_CONNECTIONS_PER_ADDRESS: '0',
      KEEP_ALIVE_TIMEOUT_MS: '2000',
      HEADERS_TIMEOUT_MS: '3000',
      EXPORTS_PER_CLIENT: '1',
      EXPORTS_MAX: '20',
      PUBLIC_URL: 'https://Dash.Example/',
      COST_BUDGET_MS_PER_SECOND: '0',
      COST_BUDGET_BURST_MS: '5000',
      COSTLY_REQUESTS_AT_ONCE: '4',
      REQUESTS_AT_ONCE: '3',
      MAX_REQUESTS_IN_FLIGHT_PER_ADDRESS: '6',
    });
    expect(config).toMatchObject({
      host: '0.0.0.0',
      port: 0,
      publicUrl: 'https://dash.example',
      shutdownTimeoutMs: 1000,
      proxy: {
        timeoutMs: 2000,
        gate: {
          concurrency: 2,
          queueTimeoutMs: 500,
          ratePerSecond: 0.5,
          maxCoolDownMs: 30_000,
          clientShare: 0.25,
        },
        rateLimit: { perMinute: 0, burst: 5 },
        trustedProxyHops: 2,
        downloads: { perClient: 1, max: 20 },
      },
      data: {
        database: { kind: 'external', url: 'postgres://dashboard:secret@db.internal:5432/events' },
        headIntervalMs: 10_000,
        monthlyQuota: 0,
      },
      index: {
        backgroundShare: 0,
        backgroundQuotaShare: 0.75,
        verifyShare: 0.1,
        verifyEveryMs: 7.5 * 86_400_000,
      },
      connections: {
        maxConnections: 500,
        maxConnectionsPerAddress: 0,
        keepAliveTimeoutMs: 2000,
        headersTimeoutMs: 3000,
      },
      share: {
        costPerSecondMs: 0,
        costBurstMs: 5000,
        costlyAtOnce: 4,
        atOnce: 3,
        inFlightPerClient: 6,
      },
      warnings: [],
    });
  });

  it('turns the budget and the bound in flight off with the per-client limit, unless set', () => {
    expect(loadConfig({ RATE_LIMIT_PER_MINUTE: '0' }).share).toEqual({
      costPerSecondMs: 0,
      costBurstMs: 30_000,
      costlyAtOnce: 2,
      atOnce: DEFAULT_CLIENT_SHARE.atOnce,
      inFlightPerClient: 0,
    });
    expect(
      loadConfig({
        RATE_LIMIT_PER_MINUTE: '0',
        COST_BUDGET_MS_PER_SECOND: '500',
        MAX_REQUESTS_IN_FLIGHT_PER_ADDRESS: '4',
      }).share,
    ).toMatchObject({ costPerSecondMs: 500, inFlightPerClient: 4 });
  });

  it.each([
    'STORE_MAX_MB',
    'STORE_MAX_AGE_HOURS',
    'CACHE_TTL_SECONDS',
    'CACHE_CURSOR_TTL_SECONDS',
    'CACHE_MAX_MB',
  ])('says at start-up that %s is no longer used, whatever its value', (name) => {
    for (const value of ['64', '-1', 'lots']) {
      const config = loadConfig({ [name]: value });
      expect(config.warnings).toEqual([
        `${name} is no longer used: the record log keeps every record for good.`,
      ]);
    }
  });

  it('says when others may reach the server but PUBLIC_URL is not set', () => {
    const unset = /^PUBLIC_URL is not set/;
    expect(loadConfig({ HOST: '0.0.0.0' }).warnings).toEqual([expect.stringMatching(unset)]);
    expect(loadConfig({ TRUST_PROXY: '1' }).warnings).toEqual([expect.stringMatching(unset)]);
    expect(loadConfig({ HOST: 'localhost' }).warnings).toEqual([]);
    expect(loadConfig({ HOST: '0.0.0.0', PUBLIC_URL: 'http://10.0.0.5:4173' })).toMatchObject({
      publicUrl: 'http://10.0.0.5:4173',
      warnings: [],
    });
  });

  it('says each retired variable set, and nothing of those unset', () => {
    const config = loadConfig({ CACHE_MAX_MB: '0', STORE_MAX_MB: '512' });
    expect(config.warnings).toEqual([
      expect.stringMatching(/^STORE_MAX_MB is no longer used/),
      expect.stringMatching(/^CACHE_MAX_MB is no longer used/),
    ]);
  });

  it('says that STORE_HEAD_SECONDS, renamed, is not read', () => {
    const config = loadConfig({ STORE_HEAD_SECONDS: '60' });
    expect(config.data.headIntervalMs).toBe(5_000);
    expect(config.warnings).toEqual([
      'STORE_HEAD_SECONDS is now HEAD_READ_SECONDS: set that instead (it is not read).',
    ]);
    expect(
      loadConfig({ STORE_HEAD_SECONDS: '60', HEAD_READ_SECONDS: '60' }).data.headIntervalMs,
    ).toBe(60_000);
  });

  it.each([
    ['1', 1_000],
    ['3600', 3_600_000],
    [' 30 ', 30_000],
    ['', 5_000],
  ])('reads HEAD_READ_SECONDS=%j as a head read at most every %i ms', (value, ms) => {
    expect(loadConfig({ HEAD_READ_SECONDS: value }).data.headIntervalMs).toBe(ms);
  });

  it.each([
    ['0', 0],
    ['1', 1],
    ['0.005', 0.005],
    ['', 0.02],
  ])('reads INDEX_VERIFY_SHARE=%j as a share of %d', (value, share) => {
    expect(loadConfig({ INDEX_VERIFY_SHARE: value }).index.verifyShare).toBe(share);
  });

  it.each([
    ['0.01', 864_000],
    ['3650', 3_650 * 86_400_000],
    ['1', 86_400_000],
    ['', 30 * 86_400_000],
  ])('reads INDEX_VERIFY_DAYS=%j as a pass every %i ms', (value, ms) => {
    expect(loadConfig({ INDEX_VERIFY_DAYS: value }).index.verifyEveryMs).toBe(ms);
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

  it('turns contract images off, and fetches ipfs:// ones from the gateway given', () => {
    expect(loadConfig({ IMAGE_PROXY: 'OFF' }).proxy.images.enabled).toBe(false);
    expect(
      loadConfig({ IMAGE_IPFS_GATEWAY: 'https://gw.example/ipfs/' }).proxy.images.ipfsGateway,
    ).toBe('https://gw.example/ipfs/');
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
    [{ HEAD_READ_SECONDS: '0' }, /HEAD_READ_SECONDS must be a whole number from 1 to 3600/],
    [{ HEAD_READ_SECONDS: '3601' }, /HEAD_READ_SECONDS must be a whole number from 1 to 3600/],
    [{ HEAD_READ_SECONDS: '2.5' }, /HEAD_READ_SECONDS must be a whole number/],
    [{ HEAD_READ_SECONDS: 'often' }, /HEAD_READ_SECONDS must be a whole number/],
    [{ INDEX_VERIFY_SHARE: '-0.01' }, /INDEX_VERIFY_SHARE must be a number from 0 to 1/],
    [{ INDEX_VERIFY_SHARE: '1.5' }, /INDEX_VERIFY_SHARE must be a number from 0 to 1/],
    [{ INDEX_VERIFY_SHARE: 'some' }, /INDEX_VERIFY_SHARE must be a number/],
    [{ INDEX_VERIFY_DAYS: '0' }, /INDEX_VERIFY_DAYS must be a number from 0.01 to 3650/],
    [{ INDEX_VERIFY_DAYS: '3651' }, /INDEX_VERIFY_DAYS must be a number from 0.01 to 3650/],
    [{ INDEX_VERIFY_DAYS: 'monthly' }, /INDEX_VERIFY_DAYS must be a number/],
    [{ TRUST_PROXY: 'yes' }, /TRUST_PROXY/],
    [{ TRUST_PROXY: '11' }, /TRUST_PROXY/],
    [{ UPSTREAM_MAX_COOL_DOWN_SECONDS: '0' }, /UPSTREAM_MAX_COOL_DOWN_SECONDS must be a whole/],
    [{ UPSTREAM_CLIENT_SHARE: '0' }, /UPSTREAM_CLIENT_SHARE must be a number from 0.01 to 1/],
    [{ UPSTREAM_CLIENT_SHARE: '1.5' }, /UPSTREAM_CLIENT_SHARE/],
    [{ MAX_CONNECTIONS: '0' }, /MAX_CONNECTIONS must be a whole number/],
    [{ MAX_CONNECTIONS_PER_ADDRESS: '-1' }, /MAX_CONNECTIONS_PER_ADDRESS/],
    [{ HEADERS_TIMEOUT_MS: '10' }, /HEADERS_TIMEOUT_MS/],
    [{ COST_BUDGET_MS_PER_SECOND: '-5' }, /COST_BUDGET_MS_PER_SECOND must be a whole number/],
    [{ COST_BUDGET_BURST_MS: '0' }, /COST_BUDGET_BURST_MS must be a whole number from 1/],
    [{ COSTLY_REQUESTS_AT_ONCE: 'few' }, /COSTLY_REQUESTS_AT_ONCE must be a whole number/],
    [{ MAX_REQUESTS_IN_FLIGHT_PER_ADDRESS: '2.5' }, /MAX_REQUESTS_IN_FLIGHT_PER_ADDRESS/],
    [{ ALLOW_INSECURE_UPSTREAM: 'maybe' }, /ALLOW_INSECURE_UPSTREAM must be true or false/],
    [{ IMAGE_PROXY: 'no' }, /IMAGE_PROXY must be "on" or "off"/],
    [{ IMAGE_IPFS_GATEWAY: 'http://ipfs.example/ipfs/' }, /IMAGE_IPFS_GATEWAY must be an https/],
    [{ IMAGE_IPFS_GATEWAY: 'gateway' }, /IMAGE_IPFS_GATEWAY must be an https/],
    [{ EXPORTS_PER_CLIENT: '0' }, /EXPORTS_PER_CLIENT must be a whole number from 1 to 1000/],
    [{ EXPORTS_MAX: 'many' }, /EXPORTS_MAX must be a whole number from 1 to 10000/],
    [{ PUBLIC_URL: 'dash.example' }, /PUBLIC_URL must be the http:\/\/ or https:\/\/ address/],
    [{ PUBLIC_URL: 'ftp://dash.example' }, /PUBLIC_URL/],
    [{ PUBLIC_URL: 'https://dash.example/app' }, /PUBLIC_URL/],
    [{ PUBLIC_URL: 'https://dash.example/?a=1' }, /PUBLIC_URL/],
    [{ PUBLIC_URL: 'https://user:pw@dash.example' }, /PUBLIC_URL/],
    [
      { DATABASE_REPLICA_URLS: 'postgres://replica.internal/events' },
      /DATABASE_REPLICA_URLS is set but DATABASE_URL is not/,
    ],
    [
      { DATABASE_URL: PRIMARY, DATABASE_REPLICA_URLS: 'postgres://a/events,mysql://b/events' },
      /DATABASE_REPLICA_URLS must be comma-separated PostgreSQL URLs/,
    ],
    [
      { DATABASE_URL: PRIMARY, DATABASE_REPLICA_URLS: REPLICAS, REPLICA_SKIP_LAG_SECONDS: '2' },
      /REPLICA_SKIP_LAG_SECONDS must be at least REPLICA_MAX_LAG_SECONDS/,
    ],
    [{ REPLICA_MAX_LAG_SECONDS: 'soon' }, /REPLICA_MAX_LAG_SECONDS must be a whole number/],
  ])('refuses %j with a clear message', (env, message) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(message);
  });

  it('reads replicas of DATABASE_URL, with their lag bounds', () => {
    expect(loadConfig({ DATABASE_URL: PRIMARY }).data.replicas).toBeUndefined();
    expect(
      loadConfig({ DATABASE_URL: PRIMARY, DATABASE_REPLICA_URLS: REPLICAS }).data.replicas,
    ).toEqual({
      urls: ['postgres://dashboard:secret@replica-1:5432/events', 'postgres://replica-2/events'],
      noteLagMs: 5_000,
      skipLagMs: 60_000,
    });
    const tuned = loadConfig({
      DATABASE_URL: PRIMARY,
      DATABASE_REPLICA_URLS: REPLICAS,
      REPLICA_MAX_LAG_SECONDS: '2',
      REPLICA_SKIP_LAG_SECONDS: '30',
    });
    expect(tuned.data.replicas).toMatchObject({ noteLagMs: 2_000, skipLagMs: 30_000 });
  });

  it.each([
    'http://api.example.test',
    'http://10.0.0.5:8080',
    'http://[2001:db8::1]/api',
    'http://127.0.0.1.example.test',
  ])('refuses the key in clear text to %s', (url) => {
    expect(() => loadConfig({ ...real, TOKEN_EVENTS_API_URL: url })).toThrow(
      /http:\/\/.*unencrypted.*ALLOW_INSECURE_UPSTREAM/,
    );
  });

  it('allows http:// to another host when told to, and says so', () => {
    const config = loadConfig({
      ...real,
      TOKEN_EVENTS_API_URL: 'http://api.example.test',
      ALLOW_INSECURE_UPSTREAM: 'true',
    });
    expect(config.upstream).toMatchObject({ kind: 'real', url: 'http://api.example.test' });
    expect(config.warnings).toEqual([expect.stringMatching(/api\.example\.test.*unencrypted/)]);
  });

  it.each([
    'http://127.0.0.1:8787',
    'http://localhost:8787/api',
    'http://[::1]:8787',
    'http://127.9.9.9',
  ])('allows http:// to this machine (%s) without a word', (url) => {
    const config = loadConfig({ ...real, TOKEN_EVENTS_API_URL: url });
    expect(config.upstream.kind).toBe('real');
    expect(config.warnings).toEqual([]);
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
