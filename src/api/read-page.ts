import { ApiError } from './api-error';
import { InvalidPageError, parsePage } from '../lib/normalise';
import { isFull, type PageParam } from './page-param';
import { getListPage } from './read-ahead';
import type { Page } from '../lib/page';

/** Turns an unreadable envelope into the data layer's one error type. */
export function readPage<T>(body: unknown, normalise: (item: unknown) => T | null): Page<T> {
  try {
    return parsePage(body, normalise);
  } catch (error) {
    if (error instanceof InvalidPageError) throw new ApiError('invalid_response', error.message);
    throw error;
  }
}

/**
 * One page of a list (`/api/v1/…`) as its param says, its records normalised. A last
 * page says whether it was full (see `Page.full`). A cursor that fails a second time with
 * the upstream's 502 is taken for dead (`expired_cursor`): the real service answers a
 * cursor it has forgotten so, for ever, and asking again never helps.
 */
export async function fetchListPage<T>(
  list: string,
  param: PageParam,
  normalise: (item: unknown) => T | null,
  signal?: AbortSignal,
): Promise<Page<T>> {
  let fetched: Awaited<ReturnType<typeof getListPage>>;
  try {
    fetched = await getListPage(list, param, signal);
  } catch (error) {
    throw param.cursor === null ? error : judgedFailure(error, param.cursor);
  }
  const page = readPage(fetched.body, normalise);
  if (page.cursor === null) {
    page.full = isFull(page.items.length + page.skipped, fetched.chars, param);
  }
  return page;
}

/** Cursors whose page failed with the upstream's 502, with how often; the latest few. */
const failedCursors = new Map<string, number>();
const REMEMBERED_CURSORS = 100;

function judgedFailure(error: unknown, cursor: string): unknown {
  if (!(error instanceof ApiError) || error.kind !== 'upstream' || error.status !== 502) {
    return error;
  }
  const failures = (failedCursors.get(cursor) ?? 0) + 1;
  failedCursors.delete(cursor);
  failedCursors.set(cursor, failures);
  if (failedCursors.size > REMEMBERED_CURSORS) {
    failedCursors.delete(failedCursors.keys().next().value!);
  }
  return failures >= 2 ? new ApiError('expired_cursor', undefined, error.status) : error;
}
