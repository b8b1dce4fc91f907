import { readErrorBody, type ApiErrorKind } from '../lib/error-body';

/**
 * The server's kinds, and the client's own: `network` (no answer at all) and
 * `unreadable_answer` (an answer of our server, or of something in front of it, that is
 * not what was asked for).
 */
export type ClientErrorKind = ApiErrorKind | 'network' | 'unreadable_answer';

/**
 * Who failed, so that no message blames the wrong one: the Token Events Service, the
 * dashboard's own server or its database, the connection between the browser and the
 * server, or none of them (the request named something that is not valid or not there).
 */
export type FailedSide = 'service' | 'server' | 'database' | 'connection' | 'request';

const SERVICE = 'The Token Events Service';
const SERVER = 'The dashboard’s server';

/**
 * Messages for the errors made here, or answered by something in front of the server:
 * the server's own answers say theirs.
 */
const DEFAULT_MESSAGES: Partial<Record<ClientErrorKind, string>> = {
  rate_limited: `${SERVICE} is throttling requests.`,
  // A 429 not in our shape: something in front of the server limits this browser.
  client_rate_limited: 'Too many requests from this browser: asked to slow down.',
  bad_request: 'The request was not valid.',
  not_found: 'Not found.',
  invalid_response: `${SERVICE} sent a page that could not be read.`,
  unreadable_answer: `${SERVER} sent an answer that could not be read.`,
  internal: `${SERVER} failed to answer this request.`,
  network: `${SERVER} cannot be reached: the connection is gone, or the server is down.`,
};

/** The one error type of the data layer; `kind` tells the cases apart for the UI. */
export class ApiError extends Error {
  readonly kind: ClientErrorKind;
  readonly status: number;
  readonly retryAfterSeconds: number | undefined;

  constructor(kind: ClientErrorKind, message?: string, status = 0, retryAfterSeconds?: number) {
    super(message || DEFAULT_MESSAGES[kind] || 'The request failed.');
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
    const { status } = response;
    return new ApiError(
      kindOfStatus(status),
      status >= 500 ? `${SERVER} did not answer (status ${status}).` : undefined,
      status,
      retryAfterHeader(response),
    );
  }
}

/** Which side an error is about (see `FailedSide`). */
export function failedSide(error: ApiError): FailedSide {
  switch (error.kind) {
    case 'network':
      return 'connection';
    case 'database':
      return 'database';
    case 'internal':
    case 'method_not_allowed':
    case 'busy':
    case 'client_rate_limited':
    case 'unreadable_answer':
      return 'server';
    case 'bad_request':
    case 'unauthorized':
    case 'not_found':
      return 'request';
    default:
      return 'service';
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

/**
 * The kind of an answer that is not ours: something in front of the server (a proxy, a
 * load balancer) answered for it, so a failure there is the server's side, not the
 * service's.
 */
function kindOfStatus(status: number): ClientErrorKind {
  if (status === 429) return 'client_rate_limited';
  if (status === 404) return 'not_found';
  if (status >= 400 && status < 500) return 'bad_request';
  return 'internal';
}
