import { describe, expect, it } from 'vitest';
import { MAX_UPSTREAM_CURSOR, readListWith } from '../../../src/server/store/read-list';
import type { PageReader } from '../../../src/server/upstream/page-read';

/** What the upstream sends is bounded: a huge cursor or id is an upstream fault, never stored. */
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

describe('the store’s reads of the upstream', () => {
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
