import { existsSync } from 'node:fs';
import { z } from 'zod';
import { DEFAULT_DOWNLOAD_LIMITS } from './api/download';
import { DEFAULT_CLIENT_SHARE, type ClientShareSettings } from './http/client-share';
import { DEFAULT_CONNECTION_LIMITS, type ConnectionLimits } from './http/connection-limits';
import { DEFAULT_LIVE_STREAMS_PER_CLIENT, DEFAULT_TIMEOUT_MS, type ServerOptions } from './compose';
import { DEFAULT_RATE_LIMIT } from './proxy/rate-limit';
import { DEFAULT_IMAGES } from './images/images';
import { ANCHOR_RANGE } from './sample-service/dataset';
import type { DatabaseConfig } from './database/open-database';
import type { ReplicaSettings } from './database/read-pools';
import { DEFAULT_READER_SETTINGS } from './log/list-reader';
import { isLoopback } from './network-address';
import { DEFAULT_GATE } from './upstream/gate';
import { DAY, DAY_MS, HOUR } from '../lib/utc';

/**
 * Server configuration comes from the environment only (plus `.env` when present).
 * Nothing here is ever prefixed `VITE_`: Vite bundles such variables into the browser.
 */
export type UpstreamConfig =
  | { kind: 'real'; url: string; apiKey: string }
  | {
      kind: 'sample';
      profile: 'documented' | 'deployed';
      seed: number;
      /** New events keep arriving while it runs. */
      live: boolean;
      /** Where its timeline ends (unix seconds); unset: the start time, rounded. */
      anchor?: number;
    };

/** Everything composeServer takes from the environment besides the upstream and the log. */
export type ProxyConfig = Required<
  Pick<
    ServerOptions,
    | 'timeoutMs'
    | 'gate'
    | 'rateLimit'
    | 'trustedProxyHops'
    | 'dailyShare'
    | 'images'
    | 'downloads'
    | 'webhooks'
    | 'liveStreamsPerClient'
  >
>;

/**
 * The record log, the index and the upstream accounting, in PostgreSQL: the server's own
 * embedded one in DATA_DIR, or the one DATABASE_URL names (shared by several servers).
 */
export interface DataConfig {
  database: DatabaseConfig;
  /** Streaming replicas of DATABASE_URL's PostgreSQL that answer the index's reads. */
  replicas?: Pick<ReplicaSettings, 'urls' | 'noteLagMs' | 'skipLagMs'>;
  /** A list's newest records are read again at most this often. */
  headIntervalMs: number;
  /** Upstream requests a month the key may make (0: no quota); a warning at 80%. */
  monthlyQuota: number;
}

/** The indexer's background work and verification pass (see src/server/indexer). */
export interface IndexConfig {
  /** Share of the upstream rate the background may spend (0: none). */
  backgroundShare: number;
  /** Share of the monthly quota past which the background waits for the next month. */
  backgroundQuotaShare: number;
  /** Share of the upstream rate the verification pass may spend (0: none). */
  verifyShare: number;
  /** Each whole history is verified at most this often. */
  verifyEveryMs: number;
}

// A fifth of the rate (1 request/s on the basic plan) and half the month's quota: the
// rest is for visitors' questions. Verification: a fiftieth of the rate, each history
// once in 30 days.
export const DEFAULT_INDEX: IndexConfig = {
  backgroundShare: 0.2,
  backgroundQuotaShare: 0.5,
  verifyShare: 0.02,
  verifyEveryMs: 30 * DAY_MS,
};

// Settings of the page cache and the old store, whose copies were dropped by size or age:
// the record log keeps everything, so these no longer mean anything.
const RETIRED = [
  'STORE_MAX_MB',
  'STORE_MAX_AGE_HOURS',
  'CACHE_TTL_SECONDS',
  'CACHE_CURSOR_TTL_SECONDS',
  'CACHE_MAX_MB',
];

export interface ServerConfig {
  host: string;
  port: number;
  /** `PUBLIC_URL`'s origin: what link previews and canonical links name (see preview/). */
  publicUrl?: string;
  /** How long a SIGTERM lets requests in flight run before answering them 503. */
  shutdownTimeoutMs: number;
  upstream: UpstreamConfig;
  proxy: ProxyConfig;
  data: DataConfig;
  index: IndexConfig;
  connections: ConnectionLimits;
  /** Each client's share of the server's time and of its requests in flight. */
  share: ClientShareSettings;
  /** Settings that are allowed but unwise, to be said at start-up. */
  warnings: string[];
}

export class ConfigError extends Error {}

type Env = Record<string, string | undefined>;

// The real service's basic plan allows 5 requests/s (burst 2) and 100,000 a month; the
// embedded sample service has no such limits.
const REAL_UPSTREAM_RATE_PER_SECOND = 5;
const BASIC_PLAN_MONTHLY_QUOTA = 100_000;
// One visitor may cause a twentieth of a day's part of the month (166 requests a day on
// the basic plan); the sample service has no quota to share.
const DEFAULT_DAILY_SHARE = 0.05;

const blankAsUndefined = (value: unknown) =>
  typeof value === 'string' && value.trim() === '' ? undefined : value;

/** An optional trimmed text; blank counts as unset. */
const text = z.preprocess(blankAsUndefined, z.string().trim().optional());

/** A number from `min` to `max`, `fallback` when unset, with one message for every fault. */
function numberVar(name: string, min: number, max: number, whole: boolean) {
  const message = `${name} must be a ${whole ? 'whole number' : 'number'} from ${min} to ${max}.`;
  const number = z.coerce
    .number({ error: message })
    .min(min, { error: message })
    .max(max, { error: message });
  return whole ? number.int({ error: message }) : number;
}
const whole = (name: string, fallback: number, min: number, max: number) =>
  z.preprocess(blankAsUndefined, numberVar(name, min, max, true).default(fallback));
const optionalWhole = (name: string, min: number, max: number) =>
  z.preprocess(blankAsUndefined, numberVar(name, min, max, true).optional());
const decimal = (name: string, fallback: number | undefined, min: number, max: number) =>
  z
    .preprocess(blankAsUndefined, numberVar(name, min, max, false).optional())
    .transform((value) => value ?? fallback);
const seconds = (name: string, fallbackMs: number, max: number, min = 0) =>
  whole(name, fallbackMs / 1000, min, max).transform((value) => value * 1000);

const postgresUrl = (name: string, what: string) =>
  z.url({
    protocol: /^postgres(ql)?$/,
    error: `${name} must be ${what}: postgres://user:password@host:5432/database.`,
  });

/** Unset means no proxy in front: `X-Forwarded-For` is then anyone's to write. */
const trustProxy = z.preprocess(
  (value) => (typeof value === 'string' ? value.trim().toLowerCase() : value),
  z.union(
    [
      z.undefined().transform(() => 0),
      z.enum(['', 'false']).transform(() => 0),
      z.literal('true').transform(() => 1),
      z
        .string()
        .regex(/^(?:\d|10)$/)
        .transform(Number),
    ],
    {
      error:
        'TRUST_PROXY must be the number of proxies in front of the server (0 to 10), true or false.',
    },
  ),
);

const flag = (name: string) =>
  z.preprocess(
    (value) => (typeof value === 'string' ? value.trim().toLowerCase() : value),
    z
      .enum(['', 'true', 'false', '1', '0'], { error: `${name} must be true or false.` })
      .optional()
      .transform((value) => value === 'true' || value === '1'),
  );

const envSchema = z.object({
  HOST: text.transform((host) => host ?? '127.0.0.1'),
  PORT: whole('PORT', 4173, 0, 65535),
  SHUTDOWN_TIMEOUT_MS: whole('SHUTDOWN_TIMEOUT_MS', 10_000, 0, 600_000),
  TOKEN_EVENTS_API_URL: text,
  TOKEN_EVENTS_API_KEY: text,
  ALLOW_INSECURE_UPSTREAM: flag('ALLOW_INSECURE_UPSTREAM'),
  SAMPLE_PROFILE: text.pipe(
    z
      .enum(['documented', 'deployed'], {
        error: 'SAMPLE_PROFILE must be "documented" or "deployed".',
      })
      .default('deployed'),
  ),
  SAMPLE_SEED: whole('SAMPLE_SEED', 1, 0, 2 ** 31),
  SAMPLE_LIVE: text.pipe(
    z
      .string()
      .toLowerCase()
      .pipe(z.enum(['on', 'off'], { error: 'SAMPLE_LIVE must be "on" or "off".' }))
      .default('on')
      .transform((value) => value === 'on'),
  ),
  SAMPLE_ANCHOR: z.preprocess(
    blankAsUndefined,
    numberVar('SAMPLE_ANCHOR', ANCHOR_RANGE.min, ANCHOR_RANGE.max, true).optional(),
  ),
  UPSTREAM_TIMEOUT_MS: whole('UPSTREAM_TIMEOUT_MS', DEFAULT_TIMEOUT_MS, 1, 600_000),
  UPSTREAM_CONCURRENCY: whole('UPSTREAM_CONCURRENCY', DEFAULT_GATE.concurrency, 1, 1000),
  UPSTREAM_QUEUE_TIMEOUT_MS: whole(
    'UPSTREAM_QUEUE_TIMEOUT_MS',
    DEFAULT_GATE.queueTimeoutMs,
    0,
    600_000,
  ),
  // Its default depends on the upstream: see below.
  UPSTREAM_RATE_PER_SECOND: decimal('UPSTREAM_RATE_PER_SECOND', undefined, 0, 100_000),
  UPSTREAM_MAX_COOL_DOWN_SECONDS: seconds(
    'UPSTREAM_MAX_COOL_DOWN_SECONDS',
    DEFAULT_GATE.maxCoolDownMs,
    DAY,
    1,
  ),
  UPSTREAM_CLIENT_SHARE: decimal('UPSTREAM_CLIENT_SHARE', DEFAULT_GATE.clientShare, 0.01, 1),
  // Its default depends on the upstream: see below.
  UPSTREAM_CLIENT_DAILY_SHARE: decimal('UPSTREAM_CLIENT_DAILY_SHARE', undefined, 0, 1),
  RATE_LIMIT_PER_MINUTE: whole('RATE_LIMIT_PER_MINUTE', DEFAULT_RATE_LIMIT.perMinute, 0, 1e9),
  RATE_LIMIT_BURST: whole('RATE_LIMIT_BURST', DEFAULT_RATE_LIMIT.burst, 1, 1e9),
  // Their defaults depend on RATE_LIMIT_PER_MINUTE: see below.
  COST_BUDGET_MS_PER_SECOND: optionalWhole('COST_BUDGET_MS_PER_SECOND', 0, 1e6),
  COST_BUDGET_BURST_MS: whole('COST_BUDGET_BURST_MS', DEFAULT_CLIENT_SHARE.costBurstMs, 1, 1e9),
  COSTLY_REQUESTS_AT_ONCE: whole(
    'COSTLY_REQUESTS_AT_ONCE',
    DEFAULT_CLIENT_SHARE.costlyAtOnce,
    0,
    10_000,
  ),
  REQUESTS_AT_ONCE: whole('REQUESTS_AT_ONCE', DEFAULT_CLIENT_SHARE.atOnce, 0, 10_000),
  MAX_REQUESTS_IN_FLIGHT_PER_ADDRESS: optionalWhole('MAX_REQUESTS_IN_FLIGHT_PER_ADDRESS', 0, 1e6),
  TRUST_PROXY: trustProxy,
  EXPORTS_PER_CLIENT: whole('EXPORTS_PER_CLIENT', DEFAULT_DOWNLOAD_LIMITS.perClient, 1, 1000),
  EXPORTS_MAX: whole('EXPORTS_MAX', DEFAULT_DOWNLOAD_LIMITS.max, 1, 10_000),
  PUBLIC_URL: text,
  DATA_DIR: text.transform((dir) => dir ?? '.data'),
  DATABASE_URL: text.pipe(postgresUrl('DATABASE_URL', 'a PostgreSQL URL').optional()),
  DATABASE_REPLICA_URLS: text.pipe(
    z
      .string()
      .transform((list) => list.split(',').map((url) => url.trim()))
      .pipe(z.array(postgresUrl('DATABASE_REPLICA_URLS', 'comma-separated PostgreSQL URLs')))
      .optional(),
  ),
  REPLICA_MAX_LAG_SECONDS: seconds('REPLICA_MAX_LAG_SECONDS', 5_000, DAY),
  REPLICA_SKIP_LAG_SECONDS: seconds('REPLICA_SKIP_LAG_SECONDS', 60_000, DAY, 1),
  HEAD_READ_SECONDS: seconds('HEAD_READ_SECONDS', DEFAULT_READER_SETTINGS.headIntervalMs, HOUR, 1),
  UPSTREAM_MONTHLY_QUOTA: whole('UPSTREAM_MONTHLY_QUOTA', BASIC_PLAN_MONTHLY_QUOTA, 0, 1e12),
  INDEX_BACKGROUND_SHARE: decimal('INDEX_BACKGROUND_SHARE', undefined, 0, 1),
  INDEX_BACKGROUND_QUOTA_SHARE: decimal('INDEX_BACKGROUND_QUOTA_SHARE', undefined, 0, 1),
  INDEX_VERIFY_SHARE: decimal('INDEX_VERIFY_SHARE', DEFAULT_INDEX.verifyShare, 0, 1),
  INDEX_VERIFY_DAYS: decimal(
    'INDEX_VERIFY_DAYS',
    DEFAULT_INDEX.verifyEveryMs / DAY_MS,
    0.01,
    3_650,
  ),
  LIVE_STREAMS_PER_ADDRESS: optionalWhole('LIVE_STREAMS_PER_ADDRESS', 0, 1e6),
  MAX_CONNECTIONS: whole('MAX_CONNECTIONS', DEFAULT_CONNECTION_LIMITS.maxConnections, 1, 1e6),
  MAX_CONNECTIONS_PER_ADDRESS: whole(
    'MAX_CONNECTIONS_PER_ADDRESS',
    DEFAULT_CONNECTION_LIMITS.maxConnectionsPerAddress,
    0,
    1e6,
  ),
  KEEP_ALIVE_TIMEOUT_MS: whole(
    'KEEP_ALIVE_TIMEOUT_MS',
    DEFAULT_CONNECTION_LIMITS.keepAliveTimeoutMs,
    100,
    600_000,
  ),
  IMAGE_PROXY: text.pipe(
    z
      .string()
      .toLowerCase()
      .pipe(z.enum(['on', 'off'], { error: 'IMAGE_PROXY must be "on" or "off".' }))
      .default('on')
      .transform((value) => value === 'on'),
  ),
  IMAGE_IPFS_GATEWAY: text.pipe(
    z
      .url({
        protocol: /^https$/,
        error: 'IMAGE_IPFS_GATEWAY must be an https:// URL, e.g. https://ipfs.io/ipfs/.',
      })
      .default(DEFAULT_IMAGES.ipfsGateway),
  ),
  // The operator's bearer token for the webhook routes; unset, webhooks are off.
  WEBHOOK_TOKEN: text.pipe(
    z
      .string()
      .min(16, 'WEBHOOK_TOKEN must be at least 16 characters: it is the key to the webhook routes.')
      .optional(),
  ),
  WEBHOOK_ALLOW_PRIVATE: flag('WEBHOOK_ALLOW_PRIVATE'),
  HEADERS_TIMEOUT_MS: whole(
    'HEADERS_TIMEOUT_MS',
    DEFAULT_CONNECTION_LIMITS.headersTimeoutMs,
    1000,
    600_000,
  ),
});

type ParsedEnv = z.infer<typeof envSchema>;

/**
 * The configuration of this process's environment (and `.env`, when there is one); a bad
 * value is said in one line and the process exits 1.
 */
export function configFromEnvironment(): ServerConfig {
  if (existsSync('.env')) process.loadEnvFile('.env');
  try {
    return loadConfig(process.env);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    console.error(`Configuration error: ${error.message}`);
    process.exit(1);
  }
}

export function loadConfig(env: Env): ServerConfig {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) throw new ConfigError(parsed.error.issues[0]?.message);
  const vars = parsed.data;
  const warnings = RETIRED.filter((name) => env[name] !== undefined).map(
    (name) => `${name} is no longer used: the record log keeps every record for good.`,
  );
  if (env.STORE_HEAD_SECONDS !== undefined) {
    warnings.push(
      'STORE_HEAD_SECONDS is now HEAD_READ_SECONDS: set that instead (it is not read).',
    );
  }
  const upstream = upstreamConfig(vars, warnings);
  const publicUrl = publicUrlOf(vars, warnings);
  const clientsLimited = vars.RATE_LIMIT_PER_MINUTE > 0;
  return {
    host: vars.HOST,
    port: vars.PORT,
    ...(publicUrl && { publicUrl }),
    shutdownTimeoutMs: vars.SHUTDOWN_TIMEOUT_MS,
    upstream,
    proxy: proxyConfig(vars, upstream),
    data: {
      database: vars.DATABASE_URL
        ? { kind: 'external', url: vars.DATABASE_URL }
        : { kind: 'embedded', dataDir: vars.DATA_DIR },
      ...replicasOf(vars),
      headIntervalMs: vars.HEAD_READ_SECONDS,
      monthlyQuota: vars.UPSTREAM_MONTHLY_QUOTA,
    },
    index: {
      backgroundShare: vars.INDEX_BACKGROUND_SHARE ?? DEFAULT_INDEX.backgroundShare,
      backgroundQuotaShare: vars.INDEX_BACKGROUND_QUOTA_SHARE ?? DEFAULT_INDEX.backgroundQuotaShare,
      verifyShare: vars.INDEX_VERIFY_SHARE ?? DEFAULT_INDEX.verifyShare,
      verifyEveryMs: (vars.INDEX_VERIFY_DAYS ?? 30) * DAY_MS,
    },
    connections: {
      maxConnections: vars.MAX_CONNECTIONS,
      maxConnectionsPerAddress: vars.MAX_CONNECTIONS_PER_ADDRESS,
      keepAliveTimeoutMs: vars.KEEP_ALIVE_TIMEOUT_MS,
      headersTimeoutMs: vars.HEADERS_TIMEOUT_MS,
    },
    // RATE_LIMIT_PER_MINUTE=0 says clients are not to be limited (tests, a trusted
    // proxy's own limits): the budget and the bound in flight follow unless set.
    share: {
      costPerSecondMs:
        vars.COST_BUDGET_MS_PER_SECOND ??
        (clientsLimited ? DEFAULT_CLIENT_SHARE.costPerSecondMs : 0),
      costBurstMs: vars.COST_BUDGET_BURST_MS,
      costlyAtOnce: vars.COSTLY_REQUESTS_AT_ONCE,
      atOnce: vars.REQUESTS_AT_ONCE,
      inFlightPerClient:
        vars.MAX_REQUESTS_IN_FLIGHT_PER_ADDRESS ??
        (clientsLimited ? DEFAULT_CLIENT_SHARE.inFlightPerClient : 0),
    },
    warnings,
  };
}

/** What the composition root takes from the environment (compose.ts's `ServerOptions`). */
function proxyConfig(vars: ParsedEnv, upstream: UpstreamConfig): ProxyConfig {
  const clientsLimited = vars.RATE_LIMIT_PER_MINUTE > 0;
  return {
    timeoutMs: vars.UPSTREAM_TIMEOUT_MS,
    gate: {
      concurrency: vars.UPSTREAM_CONCURRENCY,
      queueTimeoutMs: vars.UPSTREAM_QUEUE_TIMEOUT_MS,
      ratePerSecond:
        vars.UPSTREAM_RATE_PER_SECOND ??
        (upstream.kind === 'real' ? REAL_UPSTREAM_RATE_PER_SECOND : DEFAULT_GATE.ratePerSecond),
      maxCoolDownMs: vars.UPSTREAM_MAX_COOL_DOWN_SECONDS,
      clientShare: vars.UPSTREAM_CLIENT_SHARE,
    },
    rateLimit: { perMinute: vars.RATE_LIMIT_PER_MINUTE, burst: vars.RATE_LIMIT_BURST },
    trustedProxyHops: vars.TRUST_PROXY,
    // A visitor's requests a day: a share of a day's part of the month's quota.
    dailyShare: Math.floor(
      (vars.UPSTREAM_CLIENT_DAILY_SHARE ?? (upstream.kind === 'real' ? DEFAULT_DAILY_SHARE : 0)) *
        (vars.UPSTREAM_MONTHLY_QUOTA / 30),
    ),
    images: { enabled: vars.IMAGE_PROXY, ipfsGateway: vars.IMAGE_IPFS_GATEWAY },
    downloads: { perClient: vars.EXPORTS_PER_CLIENT, max: vars.EXPORTS_MAX },
    webhooks: {
      token: vars.WEBHOOK_TOKEN,
      deliverer: { allowPrivate: vars.WEBHOOK_ALLOW_PRIVATE },
    },
    liveStreamsPerClient:
      vars.LIVE_STREAMS_PER_ADDRESS ?? (clientsLimited ? DEFAULT_LIVE_STREAMS_PER_CLIENT : 0),
  };
}

/** Replicas of the primary DATABASE_URL names: none without it (the embedded one has none). */
function replicasOf(vars: ParsedEnv): Pick<DataConfig, 'replicas'> {
  const urls = vars.DATABASE_REPLICA_URLS;
  if (!urls) return {};
  if (!vars.DATABASE_URL) {
    throw new ConfigError(
      'DATABASE_REPLICA_URLS is set but DATABASE_URL is not: replicas are of the PostgreSQL DATABASE_URL names.',
    );
  }
  if (vars.REPLICA_SKIP_LAG_SECONDS < vars.REPLICA_MAX_LAG_SECONDS) {
    throw new ConfigError(
      'REPLICA_SKIP_LAG_SECONDS must be at least REPLICA_MAX_LAG_SECONDS: a replica is said to lag before it is left out.',
    );
  }
  return {
    replicas: {
      urls,
      noteLagMs: vars.REPLICA_MAX_LAG_SECONDS,
      skipLagMs: vars.REPLICA_SKIP_LAG_SECONDS,
    },
  };
}

function upstreamConfig(vars: ParsedEnv, warnings: string[]): UpstreamConfig {
  const url = vars.TOKEN_EVENTS_API_URL;
  if (!url) {
    const anchor = vars.SAMPLE_ANCHOR;
    return {
      kind: 'sample',
      profile: vars.SAMPLE_PROFILE,
      seed: vars.SAMPLE_SEED,
      live: vars.SAMPLE_LIVE,
      ...(anchor === undefined ? {} : { anchor }),
    };
  }
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new ConfigError('TOKEN_EVENTS_API_URL is not a valid URL.');
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') {
    throw new ConfigError('TOKEN_EVENTS_API_URL must start with https:// (or http://).');
  }
  if (parsed.search || parsed.hash || parsed.username || parsed.password) {
    throw new ConfigError(
      'TOKEN_EVENTS_API_URL must be a base URL without query, fragment or credentials.',
    );
  }
  const apiKey = vars.TOKEN_EVENTS_API_KEY;
  if (!apiKey) {
    throw new ConfigError('TOKEN_EVENTS_API_URL is set but TOKEN_EVENTS_API_KEY is not: set both.');
  }
  // Over http:// the key travels in clear text: only to this machine, unless told otherwise.
  if (parsed.protocol === 'http:' && !isLoopback(parsed.hostname)) {
    const risk = `TOKEN_EVENTS_API_URL uses http:// to ${parsed.hostname}: the API key would travel unencrypted`;
    if (!vars.ALLOW_INSECURE_UPSTREAM) {
      throw new ConfigError(`${risk}. Use https://, or set ALLOW_INSECURE_UPSTREAM=true.`);
    }
    warnings.push(`${risk} (allowed by ALLOW_INSECURE_UPSTREAM).`);
  }
  return { kind: 'real', url: parsed.href.replace(/\/+$/, ''), apiKey };
}

/**
 * `PUBLIC_URL` as an origin (`https://dashboard.example`). Unset, previews name this
 * server only as the machine itself reaches it: said at start-up when others may reach it.
 */
function publicUrlOf(vars: ParsedEnv, warnings: string[]): string | undefined {
  const url = vars.PUBLIC_URL;
  if (!url) {
    if (vars.TRUST_PROXY > 0 || !isLoopback(vars.HOST)) {
      warnings.push(
        'PUBLIC_URL is not set: link previews name this server by the address it listens on. Set PUBLIC_URL to the address visitors use (https://dashboard.example).',
      );
    }
    return undefined;
  }
  const message =
    'PUBLIC_URL must be the http:// or https:// address visitors use, without path, query or credentials (https://dashboard.example).';
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new ConfigError(message);
  }
  const bare =
    parsed.pathname === '/' &&
    !parsed.search &&
    !parsed.hash &&
    !parsed.username &&
    !parsed.password;
  if ((parsed.protocol !== 'https:' && parsed.protocol !== 'http:') || !bare || url.includes('?')) {
    throw new ConfigError(message);
  }
  return parsed.origin;
}
