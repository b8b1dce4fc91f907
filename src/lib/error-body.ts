/**
 * The one JSON error body the proxy sends and the browser client reads:
 * `{ "error": { "kind", "message", "status", "retryAfterSeconds"? } }`.
 * Shared by both sides so they cannot drift apart. Each kind has one meaning, and so one
 * side to blame: the browser says each in its own words.
 */
export const API_ERROR_KINDS = [
  /** The service refused the server's API key. */
  'bad_key',
  /** The service throttles the server (or its monthly quota is spent). */
  'rate_limited',
  /** This server's own per-client limit: the visitor asked too often. */
  'client_rate_limited',
  'bad_request',
  /** A route for the operator's token only (webhooks), asked without it. */
  'unauthorized',
  'not_found',
  'method_not_allowed',
  /** The service failed: an error status, a connection cut mid-page. */
  'upstream',
  /** This server cannot take the request now: its queue for the service is full, it restarts. */
  'busy',
  /** The service did not answer in time. */
  'timeout',
  /** The service cannot be reached. */
  'unreachable',
  /** The service sent a page that cannot be read. */
  'invalid_response',
  'database',
  'internal',
] as const;

export type ApiErrorKind = (typeof API_ERROR_KINDS)[number];

export interface ApiErrorBody {
  error: {
    kind: ApiErrorKind;
    message: string;
    status: number;
    /** How long to wait before asking again, when the proxy knows (rate limits). */
    retryAfterSeconds?: number;
  };
}

export function isApiErrorKind(value: unknown): value is ApiErrorKind {
  return typeof value === 'string' && (API_ERROR_KINDS as readonly string[]).includes(value);
}

/**
 * The error of a parsed JSON body in our shape, or null when the body is not ours (an
 * error page of something in front of the proxy). Fields of the wrong type are left out.
 */
export function readErrorBody(
  value: unknown,
): { kind: ApiErrorKind; message?: string; retryAfterSeconds?: number } | null {
  const error =
    typeof value === 'object' && value !== null ? (value as { error?: unknown }).error : undefined;
  if (typeof error !== 'object' || error === null) return null;
  const { kind, message, retryAfterSeconds } = error as Record<string, unknown>;
  if (!isApiErrorKind(kind)) return null;
  return {
    kind,
    ...(typeof message === 'string' && { message }),
    ...(typeof retryAfterSeconds === 'number' &&
      Number.isFinite(retryAfterSeconds) &&
      retryAfterSeconds >= 0 && { retryAfterSeconds }),
  };
}
