import { readErrorBody, type ApiErrorKind } from '../lib/error-body';

export type ClientErrorKind = ApiErrorKind | 'network';

const DEFAULT_MESSAGES: Record<ClientErrorKind, string> = {
  bad_key: 'The server’s API key was refused by the Token Events Service.',
  rate_limited: 'Too many requests: the service asked us to slow down.',
  bad_request: 'The request was not valid.',
  not_found: 'Not found.',
  method_not_allowed: 'The request was not valid.',
  upstream: 'The Token Events Service failed to answer.',
  timeout: 'The Token Events Service took too long to answer.',
  unreachable: 'The Token Events Service cannot be reached.',
  invalid_response: 'The Token Events Service sent a response that could not be read.',
  expired_cursor:
    'The service no longer knows where this list had got to: it forgets its place in a list after a while.',
  database:
    'The dashboard’s own database is not answering; the Token Events Service is not at fault.',
  internal: 'The dashboard’s server failed to answer this request.',
  network: 'The dashboard’s server cannot be reached. Check your connection.',
};

/** The one error type of the data layer; `kind` tells the cases apart for the UI. */
export class ApiError extends Error {
  readonly kind: ClientErrorKind;
  readonly status: number;
  readonly retryAfterSeconds: number | undefined;

  constructor(kind: ClientErrorKind, message?: string, status = 0, retryAfterSeconds?: number) {
    super(message || DEFAULT_MESSAGES[kind]);
    this.name = 'ApiError';
    this.kind = kind;
    this.status = status;
    this.retryAfterSeconds = retryAfterSeconds;
  }

  /**
   * Builds the error from a non-2xx response of our proxy, whose body says the kind and,
   * for a rate limit, how long to wait; or of anything in front of it, known by its status
   * and its standard `Retry-After` header.
   */
  static async fromResponse(response: Response): Promise<ApiError> {
    let body: ReturnType<typeof readErrorBody> = null;
    try {
      body = readErrorBody(await response.json());
    } catch {
      // Not JSON: not ours.
    }
    if (body) return new ApiError(body.kind, body.message, response.status, body.retryAfterSeconds);
    return new ApiError(
      kindOfStatus(response.status),
      undefined,
      response.status,
      retryAfterHeader(response),
    );
  }
}

/** `Retry-After` in seconds; undefined when absent or not a number of seconds. */
function retryAfterHeader(response: Response): number | undefined {
  const value = response.headers.get('retry-after');
  const seconds = Number(value);
  return value !== null && value.trim() !== '' && Number.isFinite(seconds) && seconds >= 0
    ? seconds
    : undefined;
}

function kindOfStatus(status: number): ClientErrorKind {
  if (status === 429) return 'rate_limited';
  if (status === 403) return 'bad_key';
  if (status === 404) return 'not_found';
  if (status === 504) return 'timeout';
  if (status >= 400 && status < 500) return 'bad_request';
  return 'upstream';
}
