import type { PageFailure, PageReader } from '../upstream/page-read';
import type { ListSpec, ReadList } from './list-reader';
import { readListPage } from './list-page';

/** The largest page the log asks for: the service then cuts each page at its 1MB cap. */
export const STORE_PAGE_LIMIT = 5000;
// A page this close to the cap was cut by it, rather than ended by the list.
const CUT_PAGE_BYTES = 1_048_576 - 16_384;
// The service's cursors are UUIDs and its ids 66 characters: anything far longer is a
// fault of the upstream, refused rather than stored and sent back on every later read.
export const MAX_UPSTREAM_CURSOR = 512;
export const MAX_UPSTREAM_ID = 256;
const ID_FIELDS = ['transaction_hash', 'event_id', 'token_id', 'token_id_hex', 'contract_address'];

/**
 * The log's reads of the upstream: the largest pages, through the same page reader as
 * everything else (gate, budget, checks). A cursor the service answers with its 502 may
 * have been forgotten (`cursorRefused`); a page as long as asked for, or cut at the byte
 * cap, is `full`, so a missing cursor on it does not prove the end.
 */
export function readListWith(readPage: PageReader): ReadList<PageFailure> {
  return async (spec: ListSpec, cursor, client) => {
    const search = new URLSearchParams();
    if (cursor !== null) search.set('cursor', cursor);
    search.set('limit', String(STORE_PAGE_LIMIT));
    const result = await readPage(`${spec.path}?${search}`, client ?? 'store');
    if (result.kind === 'failed') {
      const { failure } = result;
      const refused = cursor !== null && failure.kind === 'status' && failure.status === 502;
      return { kind: 'failed', failure, cursorRefused: refused };
    }
    if (
      (result.envelope.cursor?.length ?? 0) > MAX_UPSTREAM_CURSOR ||
      // Kept as text: PostgreSQL holds no NUL, and no real cursor has a control character.
      /\p{Cc}/u.test(result.envelope.cursor ?? '') ||
      hasHugeId(result.envelope.result)
    ) {
      return { kind: 'failed', failure: { kind: 'invalid' }, cursorRefused: false };
    }
    const page = readListPage(result.envelope, spec.identity, result.body);
    const full =
      page.records.length >= STORE_PAGE_LIMIT || result.body.byteLength >= CUT_PAGE_BYTES;
    return { kind: 'page', page, full };
  };
}

function hasHugeId(records: readonly unknown[]): boolean {
  return records.some((record) => {
    if (typeof record !== 'object' || record === null) return false;
    const fields = record as Record<string, unknown>;
    return ID_FIELDS.some((field) => String(fields[field] ?? '').length > MAX_UPSTREAM_ID);
  });
}
