/**
 * The one JSON error shape the proxy sends and the browser client reads:
 * `{ "error": { "kind", "message", "status", "retryAfterSeconds"? } }`.
 * Shared by both sides so they cannot drift apart.
 */
export const API_ERROR_KINDS = [
  'bad_key',
  'rate_limited',
  'bad_request',
  'not_found',
  'method_not_allowed',
  'upstream',
  'timeout',
  'unreachable',
  'invalid_response',
  'expired_cursor',
] as const;

export type ApiErrorKind = (typeof API_ERROR_KINDS)[number];

export interface ApiErrorBody {
  error: {
    kind: ApiErrorKind;
    message: string;
    status: number;
    retryAfterSeconds?: number;
  };
}

export function isApiErrorKind(value: unknown): value is ApiErrorKind {
  return typeof value === 'string' && (API_ERROR_KINDS as readonly string[]).includes(value);
}
