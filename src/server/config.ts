import { DEFAULT_TIMEOUT_MS, type ProxyOptions } from './proxy/app';
import { DEFAULT_PAGE_CACHE } from './proxy/page-cache';
import { DEFAULT_RATE_LIMIT } from './proxy/rate-limit';
import { DEFAULT_GATE } from './upstream/gate';

/**
 * Server configuration comes from the environment only (plus `.env` when present).
 * Nothing here is ever prefixed `VITE_`: Vite bundles such variables into the browser.
 */
export type UpstreamConfig =
  | { kind: 'real'; url: string; apiKey: string }
  | { kind: 'sample'; profile: 'documented' | 'deployed'; seed: number };

/** Everything the proxy takes besides the upstream itself and the log. */
export type ProxyConfig = Required<
  Pick<ProxyOptions, 'timeoutMs' | 'cache' | 'gate' | 'rateLimit' | 'trustedProxyHops'>
>;

export interface ServerConfig {
  host: string;
  port: number;
  /** How long a SIGTERM waits for requests in flight before the process exits anyway. */
  shutdownTimeoutMs: number;
  upstream: UpstreamConfig;
  proxy: ProxyConfig;
}

export class ConfigError extends Error {}

type Env = Record<string, string | undefined>;

// The real service's basic plan allows 5 requests/s with a burst of 2; the embedded
// sample service has no such limit.
const REAL_UPSTREAM_RATE_PER_SECOND = 5;

export function loadConfig(env: Env): ServerConfig {
  const upstream = upstreamConfig(env);
  return {
    host: env.HOST?.trim() || '127.0.0.1',
    port: integer(env, 'PORT', 4173, 0, 65535),
    shutdownTimeoutMs: integer(env, 'SHUTDOWN_TIMEOUT_MS', 10_000, 0, 600_000),
    upstream,
    proxy: {
      timeoutMs: integer(env, 'UPSTREAM_TIMEOUT_MS', DEFAULT_TIMEOUT_MS, 1, 600_000),
      cache: {
        firstPageTtlMs:
          1000 *
          integer(env, 'CACHE_TTL_SECONDS', DEFAULT_PAGE_CACHE.firstPageTtlMs / 1000, 0, 86_400),
        cursorPageTtlMs:
          1000 *
          integer(
            env,
            'CACHE_CURSOR_TTL_SECONDS',
            DEFAULT_PAGE_CACHE.cursorPageTtlMs / 1000,
            0,
            7 * 86_400,
          ),
        maxBytes:
          1024 *
          1024 *
          integer(env, 'CACHE_MAX_MB', DEFAULT_PAGE_CACHE.maxBytes / 1024 / 1024, 0, 65_536),
      },
      gate: {
        concurrency: integer(env, 'UPSTREAM_CONCURRENCY', DEFAULT_GATE.concurrency, 1, 1000),
        queueTimeoutMs: integer(
          env,
          'UPSTREAM_QUEUE_TIMEOUT_MS',
          DEFAULT_GATE.queueTimeoutMs,
          0,
          600_000,
        ),
        ratePerSecond: decimal(
          env,
          'UPSTREAM_RATE_PER_SECOND',
          upstream.kind === 'real' ? REAL_UPSTREAM_RATE_PER_SECOND : DEFAULT_GATE.ratePerSecond,
          0,
          100_000,
        ),
        rateBurst: integer(env, 'UPSTREAM_RATE_BURST', DEFAULT_GATE.rateBurst, 1, 100_000),
      },
      rateLimit: {
        perMinute: integer(env, 'RATE_LIMIT_PER_MINUTE', DEFAULT_RATE_LIMIT.perMinute, 0, 1e9),
        burst: integer(env, 'RATE_LIMIT_BURST', DEFAULT_RATE_LIMIT.burst, 1, 1e9),
      },
      trustedProxyHops: trustProxy(env.TRUST_PROXY),
    },
  };
}

function upstreamConfig(env: Env): UpstreamConfig {
  const url = env.TOKEN_EVENTS_API_URL?.trim();
  if (!url) {
    const profile = env.SAMPLE_PROFILE?.trim() || 'deployed';
    if (profile !== 'documented' && profile !== 'deployed') {
      throw new ConfigError('SAMPLE_PROFILE must be "documented" or "deployed".');
    }
    return { kind: 'sample', profile, seed: integer(env, 'SAMPLE_SEED', 1, 0, 2 ** 31) };
  }
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new ConfigError(`TOKEN_EVENTS_API_URL is not a valid URL.`);
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') {
    throw new ConfigError('TOKEN_EVENTS_API_URL must start with https:// (or http://).');
  }
  if (parsed.search || parsed.hash || parsed.username || parsed.password) {
    throw new ConfigError(
      'TOKEN_EVENTS_API_URL must be a base URL without query, fragment or credentials.',
    );
  }
  const apiKey = env.TOKEN_EVENTS_API_KEY?.trim();
  if (!apiKey) {
    throw new ConfigError('TOKEN_EVENTS_API_URL is set but TOKEN_EVENTS_API_KEY is not: set both.');
  }
  return { kind: 'real', url: parsed.href.replace(/\/+$/, ''), apiKey };
}

/** Unset means no proxy in front: `X-Forwarded-For` is then anyone's to write. */
function trustProxy(value: string | undefined): number {
  const text = value?.trim().toLowerCase();
  if (!text || text === 'false') return 0;
  if (text === 'true') return 1;
  if (/^\d{1,2}$/.test(text) && Number(text) <= 10) return Number(text);
  throw new ConfigError(
    'TRUST_PROXY must be the number of proxies in front of the server (0 to 10), true or false.',
  );
}

function integer(env: Env, name: string, fallback: number, min: number, max: number): number {
  return numberOf(env, name, fallback, min, max, true);
}

function decimal(env: Env, name: string, fallback: number, min: number, max: number): number {
  return numberOf(env, name, fallback, min, max, false);
}

function numberOf(
  env: Env,
  name: string,
  fallback: number,
  min: number,
  max: number,
  whole: boolean,
): number {
  const value = env[name];
  if (value === undefined || value.trim() === '') return fallback;
  const number = Number(value);
  if (
    !Number.isFinite(number) ||
    (whole && !Number.isInteger(number)) ||
    number < min ||
    number > max
  ) {
    throw new ConfigError(
      `${name} must be a ${whole ? 'whole number' : 'number'} from ${min} to ${max}.`,
    );
  }
  return number;
}
