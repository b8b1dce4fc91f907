import { ApiError } from './api-error';

/**
 * GETs same-origin JSON from our proxy. The browser never talks to the upstream and
 * never holds its key. Cancellation comes from the caller's AbortSignal (React Query
 * passes one per query); an aborted request rejects with the AbortError untouched.
 */
export async function getJson(path: string, signal?: AbortSignal): Promise<unknown> {
  return readJson(await getResponse(path, signal), signal);
}

/**
 * An answer of the query API: a JSON object with each of the `required` fields, or an
 * `unreadable_answer` that says our own server sent it (a proxy's HTML page, a cut body).
 * The fields' types are the server's (src/lib/answers.ts): same code, same build.
 */
export async function getAnswer<T>(
  path: string,
  signal: AbortSignal | undefined,
  required: readonly (keyof T & string)[],
): Promise<T> {
  return checkedAnswer<T>(await getJson(path, signal), required);
}

/**
 * An answer of a route that takes the operator's token (webhooks): GET, POST with a JSON
 * body or DELETE, with `Authorization: Bearer <token>`; read and checked as `getAnswer`'s.
 */
export async function sendAnswer<T>(
  path: string,
  request: {
    method?: 'GET' | 'POST' | 'DELETE';
    token: string;
    body?: unknown;
    signal?: AbortSignal;
  },
  required: readonly (keyof T & string)[],
): Promise<T> {
  const { method = 'GET', token, body, signal } = request;
  const response = await getResponse(path, signal, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      ...(body !== undefined && { 'content-type': 'application/json' }),
    },
    ...(body !== undefined && { body: JSON.stringify(body) }),
  });
  return checkedAnswer<T>(await readJson(response, signal), required);
}

function checkedAnswer<T>(body: unknown, required: readonly (keyof T & string)[]): T {
  if (
    typeof body !== 'object' ||
    body === null ||
    Array.isArray(body) ||
    required.some((field) => !(field in body))
  ) {
    throw new ApiError(
      'unreadable_answer',
      'The dashboard’s server sent an answer it could not read.',
    );
  }
  return body as T;
}

/** `path?…&limit=…&cursor=…`: one page of a paged answer under the view's parameters. */
export function pagePath(
  path: string,
  search: string | URLSearchParams,
  limit: number,
  cursor: string | null | undefined,
): string {
  const params = new URLSearchParams(search);
  params.set('limit', String(limit));
  if (cursor) params.set('cursor', cursor);
  return `${path}?${params}`;
}

/** The response once its headers are in (a GET unless `init` says); a failure status is an `ApiError`. */
async function getResponse(
  path: string,
  signal?: AbortSignal,
  init: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<Response> {
  let response: Response;
  try {
    response = await fetch(path, {
      ...init,
      signal,
      headers: { accept: 'application/json', ...init.headers },
    });
  } catch (error) {
    if (signal?.aborted) throw error;
    throw new ApiError('network');
  }
  if (!response.ok) throw await ApiError.fromResponse(response);
  return response;
}

/** The body of a successful response as JSON. */
async function readJson(response: Response, signal?: AbortSignal): Promise<unknown> {
  try {
    return JSON.parse(await response.text()) as unknown;
  } catch (error) {
    if (signal?.aborted) throw error;
    throw new ApiError('unreadable_answer', undefined, response.status);
  }
}
