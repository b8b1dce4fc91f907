/**
 * The upstream's list envelope, `{ "result": [...], "cursor": "..." }`, read in one place
 * for both sides: the proxy checks that a page is whole before serving or caching it,
 * and the browser reads its records and cursor.
 */
export interface PageEnvelope {
  result: readonly unknown[];
  /** The next page's cursor; `null` at the end, whether the upstream sent `null`, `""` or nothing. */
  cursor: string | null;
}

/**
 * The envelope of a parsed JSON page, or null when it is not one: an object whose
 * `result`, when present and not null, is an array and whose `cursor`, when present and
 * not null, is a string. Unknown fields are ignored.
 */
export function readPageEnvelope(value: unknown): PageEnvelope | null {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return null;
  const { result, cursor } = value as { result?: unknown; cursor?: unknown };
  if (result !== undefined && result !== null && !Array.isArray(result)) return null;
  if (cursor !== undefined && cursor !== null && typeof cursor !== 'string') return null;
  return { result: result ?? [], cursor: cursor ? cursor : null };
}

/** The service cuts every page at this many bytes of JSON (a walk's pages are cut so). */
export const SERVICE_PAGE_BYTES = 1_048_576;

/** One page of a list: the records that could be read, how many could not, and the cursor. */
export interface Page<T> {
  items: T[];
  skipped: number;
  /** `null` at the end, whether the upstream sent `null` or nothing. */
  cursor: string | null;
  /**
   * As full as a page gets: as many records as asked for, or as many bytes as the service
   * puts in one. The service leaves the cursor out when it cannot reach its cursor cache,
   * so a full page without one is no proof of the end.
   */
  full?: boolean;
}
