import { SERVICE_PAGE_BYTES, type Page } from '../lib/page';

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

/** The service's page size when a request names none. */
export const SERVICE_DEFAULT_LIMIT = 100;

export const firstPage = (limit?: number): PageParam => ({ cursor: null, limit });

/**
 * Pages after which the list is read again from its head: their cursor died (the
 * service forgot it), or they ended the list while full (see `Page.full`). Kept by page
 * object, not in the cached data: a page fetched anew (a refetch, a reload) is another
 * object, whose own cursor is tried first.
 */
const headAfter = new WeakSet<Page<unknown>>();

/**
 * Reads the list on from its head after `page`: the next page asked for is the first
 * again, and the flattener skips the rows met again (see flatten.ts).
 */
export function readAgainAfter(page: Page<unknown>): void {
  headAfter.add(page);
}

/**
 * The param of the page after `last` (undefined at the end): `limit` items while browsing,
 * the largest pages read ahead while the list is walked to its end; no cursor when the
 * list is read again from its head after `last`.
 */
export const nextPage =
  (limit: number | undefined, walking: boolean) =>
  (last: Page<unknown>): PageParam | undefined => {
    // Read again in the largest pages: the rows already loaded are passed in as few
    // requests as can be, and the first is not the page a shared cache may still hold
    // (whose cursor is the dead one).
    if (headAfter.has(last)) {
      return walking
        ? { cursor: null, limit: WALK_PAGE_LIMIT, readAhead: true }
        : { cursor: null, limit: WALK_PAGE_LIMIT };
    }
    if (!last.cursor) return undefined;
    return walking
      ? { cursor: last.cursor, limit: WALK_PAGE_LIMIT, readAhead: true }
      : { cursor: last.cursor, limit };
  };

/** Whether a page ended its list while full: as many records as asked, or the byte cap. */
export function isFull(records: number, chars: number, param: PageParam): boolean {
  // A page of JSON is mostly ASCII: its characters are its bytes, near enough to tell a
  // page cut at the cap (less than one record short of it) from one that ended.
  return records >= (param.limit ?? SERVICE_DEFAULT_LIMIT) || chars > SERVICE_PAGE_BYTES - 4096;
}
