import { describe, expect, it } from 'vitest';
import {
  MAX_UPSTREAM_CURSOR,
  readListWith,
  STORE_PAGE_LIMIT,
} from '../../../src/server/log/read-list';
import type { PageReader } from '../../../src/server/upstream/page-read';

/**
 * The log's reads of the upstream. What the service sends is bounded: a huge cursor or id
 * is an upstream fault, never stored. Its 502 to a cursor may be a forgotten cursor, and a
 * page as long as asked for is `full` (a missing cursor on it is no proof of the end).
 */
const spec = {
  path: `/v1/events/0x${'a'.repeat(64)}`,
  order: 'newest-first',
  identity: 'event',
} as const;

function readerOf(envelope: { result: unknown[]; cursor: string | null }): PageReader {
  const body = Buffer.from(JSON.stringify(envelope));
  return async () => ({
    kind: 'page',
    status: 200,
    body,
    envelope,
    next: envelope.cursor ?? undefined,
  });
}

describe('the log’s reads of the upstream', () => {
  it('refuse a cursor far longer than the service’s own', async () => {
    const read = readListWith(
      readerOf({ result: [], cursor: 'x'.repeat(MAX_UPSTREAM_CURSOR + 1) }),
    );
    expect(await read(spec, null, 'test')).toEqual({
      kind: 'failed',
      failure: { kind: 'invalid' },
      cursorRefused: false,
    });
  });

  it('refuse a record whose id is megabytes long', async () => {
    const read = readListWith(
      readerOf({ result: [{ transaction_hash: `0x${'1'.repeat(5000)}` }], cursor: null }),
    );
    expect((await read(spec, null, 'test')).kind).toBe('failed');
  });

  it('refuse a cursor with a control character (kept as text, it could hold a NUL)', async () => {
    const read = readListWith(readerOf({ result: [], cursor: 'a\u0000b' }));
    expect((await read(spec, null, 'test')).kind).toBe('failed');
  });

  it('take a 502 to a cursor as perhaps a forgotten cursor, and to the head as not', async () => {
    const failing: PageReader = async () => ({
      kind: 'failed',
      failure: {
        kind: 'status',
        status: 502,
        body: '{"message":"Internal server error"}',
        retryAfter: null,
      },
    });
    const read = readListWith(failing);
    expect(await read(spec, 'c0ffee', 'test')).toMatchObject({ cursorRefused: true });
    expect(await read(spec, null, 'test')).toMatchObject({ cursorRefused: false });
  });

  it('call a page as long as asked for full, and a shorter one not', async () => {
    const records = (count: number) =>
      Array.from({ length: count }, (_, n) => ({
        transaction_hash: `0x${n.toString(16).padStart(64, '0')}`,
        timestamp: 1,
      }));
    const full = await readListWith(readerOf({ result: records(STORE_PAGE_LIMIT), cursor: null }))(
      spec,
      null,
      'test',
    );
    expect(full).toMatchObject({ kind: 'page', full: true });
    const short = await readListWith(readerOf({ result: records(10), cursor: null }))(
      spec,
      null,
      'test',
    );
    expect(short).toMatchObject({ kind: 'page', full: false });
  });

  it('take an ordinary page', async () => {
    const read = readListWith(
      readerOf({
        result: [{ transaction_hash: `0x${'1'.repeat(64)}`, timestamp: 1 }],
        cursor: 'c0ffee',
      }),
    );
    const outcome = await read(spec, null, 'test');
    expect(outcome.kind).toBe('page');
  });
});
