import { DEFAULT_TIMEOUT_MS } from './proxy/app';

/**
 * Server configuration comes from the environment only (plus `.env` when present).
 * Nothing here is ever prefixed `VITE_`: Vite bundles such variables into the browser.
 */
export type UpstreamConfig =
  | { kind: 'real'; url: string; apiKey: string }
  | { kind: 'sample'; profile: 'documented' | 'deployed'; seed: number };

export interface ServerConfig {
  host: string;
  port: number;
  timeoutMs: number;
  upstream: UpstreamConfig;
}

export class ConfigError extends Error {}

export function loadConfig(env: Record<string, string | undefined>): ServerConfig {
  return {
    host: env.HOST?.trim() || '127.0.0.1',
    port: integer(env.PORT, 'PORT', 4173, 0, 65535),
    timeoutMs: integer(
      env.UPSTREAM_TIMEOUT_MS,
      'UPSTREAM_TIMEOUT_MS',
      DEFAULT_TIMEOUT_MS,
      1,
      600_000,
    ),
    upstream: upstreamConfig(env),
  };
}

function upstreamConfig(env: Record<string, string | undefined>): UpstreamConfig {
  const url = env.TOKEN_EVENTS_API_URL?.trim();
  if (!url) {
    const profile = env.SAMPLE_PROFILE?.trim() || 'deployed';
    if (profile !== 'documented' && profile !== 'deployed') {
      throw new ConfigError('SAMPLE_PROFILE must be "documented" or "deployed".');
    }
    return {
      kind: 'sample',
      profile,
      seed: integer(env.SAMPLE_SEED, 'SAMPLE_SEED', 1, 0, 2 ** 31),
    };
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

function integer(
  value: string | undefined,
  name: string,
  fallback: number,
  min: number,
  max: number,
): number {
  if (value === undefined || value.trim() === '') return fallback;
  const number = Number(value);
  if (!Number.isInteger(number) || number < min || number > max) {
    throw new ConfigError(`${name} must be a whole number from ${min} to ${max}.`);
  }
  return number;
}
