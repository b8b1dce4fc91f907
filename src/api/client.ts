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
  const body = await getJson(path, signal);
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

/** The response to a GET once its headers are in; a failure status is an `ApiError`. */
async function getResponse(path: string, signal?: AbortSignal): Promise<Response> {
  let response: Response;
  try {
    response = await fetch(path, { signal, headers: { accept: 'application/json' } });
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
