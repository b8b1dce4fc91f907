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
