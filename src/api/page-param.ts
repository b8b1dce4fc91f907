import type { Page } from '../lib/page';

/**
 * Which page of a list a query fetches: its cursor (null for the first), how many items
 * it asks for (none: the service's default), and whether it is part of a walk to the end
 * (which reads ahead, see read-ahead.ts). Each page's param is kept with the page in the
 * query cache: what a page was fetched with is said there, not in other state, and the
 * list's query key names the list and its first page.
 */
export interface PageParam {
  cursor: string | null;
  limit?: number;
  readAhead?: boolean;
}

/** The proxy's largest `limit`; the service then fills each page up to its 1MB cap. */
export const WALK_PAGE_LIMIT = 5000;

export const firstPage = (limit?: number): PageParam => ({ cursor: null, limit });

/**
 * The param of the page after `last` (undefined at the end): `limit` items while browsing,
 * the largest pages read ahead while the list is walked to its end.
 */
export const nextPage =
  (limit: number | undefined, walking: boolean) =>
  (last: Page<unknown>): PageParam | undefined => {
    if (!last.cursor) return undefined;
    return walking
      ? { cursor: last.cursor, limit: WALK_PAGE_LIMIT, readAhead: true }
      : { cursor: last.cursor, limit };
  };
