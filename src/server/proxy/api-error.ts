import type { ApiErrorBody, ApiErrorKind } from '../../lib/error-body';

/** Builds the one JSON error shape the browser client understands. */
export function apiErrorResponse(
  kind: ApiErrorKind,
  status: number,
  message: string,
  retryAfterSeconds?: number,
): Response {
  const body: ApiErrorBody = { error: { kind, message, status } };
  const headers = new Headers({
    'content-type': 'application/json; charset=utf-8',
    'cache-control': 'no-store',
  });
  if (retryAfterSeconds !== undefined) {
    body.error.retryAfterSeconds = retryAfterSeconds;
    headers.set('retry-after', String(retryAfterSeconds));
  }
  return new Response(JSON.stringify(body), { status, headers });
}

/** `Retry-After` in seconds (delta form or HTTP date), or undefined when absent or unusable. */
export function parseRetryAfter(value: string | null, now = Date.now()): number | undefined {
  if (value === null || value.trim() === '') return undefined;
  if (/^\s*\d+\s*$/.test(value)) return Math.min(Number(value), 24 * 3600);
  const date = Date.parse(value);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, Math.min(Math.ceil((date - now) / 1000), 24 * 3600));
}

/**
 * Turns a non-2xx upstream answer into our error shape. The upstream's bodies are
 * `{"message": "…"}`; the message is only used to tell a spent quota from throttling.
 */
export function mapUpstreamError(status: number, bodyText: string, retryAfter: string | null) {
  const message = upstreamMessage(bodyText);
  if (status === 403) {
    return apiErrorResponse(
      'bad_key',
      403,
      'The Token Events Service refused the server’s API key. Check TOKEN_EVENTS_API_KEY.',
    );
  }
  if (status === 429) {
    const quota = /limit exceeded/i.test(message);
    return apiErrorResponse(
      'rate_limited',
      429,
      quota
        ? 'The API key’s monthly quota is spent.'
        : 'The Token Events Service is throttling requests.',
      parseRetryAfter(retryAfter),
    );
  }
  if (status === 400) {
    return apiErrorResponse('bad_request', 400, message || 'The service rejected the request.');
  }
  if (status === 404) return apiErrorResponse('not_found', 404, 'Not found.');
  return apiErrorResponse(
    'upstream',
    502,
    `The Token Events Service failed (status ${status}${message ? `: ${message}` : ''}).`,
  );
}

function upstreamMessage(bodyText: string): string {
  try {
    const parsed: unknown = JSON.parse(bodyText);
    if (parsed && typeof parsed === 'object' && 'message' in parsed) {
      const message = (parsed as { message: unknown }).message;
      if (typeof message === 'string') return message.slice(0, 200);
    }
  } catch {
    // Not JSON: fall through to no message rather than echo arbitrary upstream text.
  }
  return '';
}
