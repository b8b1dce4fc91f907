import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  createSignedCursors,
  type CursorPosition,
  type ListKind,
} from '../../../src/server/sample-service/cursor';
import { createCursorCache } from '../../../src/server/sample-service/cursor-cache';

const LISTS: ListKind[] = ['contracts', 'contract-events', 'token-events'];
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

const position = fc.record<CursorPosition>({
  list: fc.constantFrom(...LISTS),
  listId: fc.integer({ min: 0, max: 0xffff_ffff }),
  next: fc.integer({ min: 0, max: 0xffff_ffff }),
  emptyServed: fc.boolean(),
});

describe('signed cursors (documented profile)', () => {
  it('resolve what they issue', () => {
    fc.assert(
      fc.property(position, (at) => {
        const cursors = createSignedCursors('secret');
        expect(cursors.resolve(cursors.issue(at))).toEqual(at);
      }),
    );
  });

  it('reject any edited cursor', () => {
    fc.assert(
      fc.property(
        position,
        fc.nat(),
        fc.constantFrom(...'0123456789abcdefABCDEFxyz-_'),
        (at, place, replacement) => {
          const cursors = createSignedCursors('secret');
          const cursor = cursors.issue(at);
          const index = place % cursor.length;
          fc.pre(cursor[index] !== replacement);
          const edited = cursor.slice(0, index) + replacement + cursor.slice(index + 1);
          expect(cursors.resolve(edited)).toBeNull();
        },
      ),
    );
  });

  it('reject cursors signed with another secret, and text that is no cursor', () => {
    const at: CursorPosition = { list: 'token-events', listId: 7, next: 42, emptyServed: false };
    const other = createSignedCursors('other').issue(at);
    expect(createSignedCursors('secret').resolve(other)).toBeNull();
    fc.assert(
      fc.property(fc.string(), (text) => {
        expect(createSignedCursors('secret').resolve(text)).toBeNull();
      }),
    );
  });
});

describe('the cursor cache (deployed profile)', () => {
  it('issues a new random UUID for every page, even for the same position, and resolves each', () => {
    fc.assert(
      fc.property(position, fc.integer({ min: 2, max: 20 }), (at, times) => {
        const cache = createCursorCache(100);
        const cursors = Array.from({ length: times }, () => cache.issue(at));
        expect(new Set(cursors).size).toBe(times);
        for (const cursor of cursors) {
          expect(cursor).toMatch(UUID);
          expect(cache.resolve(cursor)).toEqual(at);
        }
      }),
    );
  });

  it('knows no cursor it did not issue', () => {
    const cache = createCursorCache(10);
    const issued = cache.issue({ list: 'contracts', listId: 0, next: 3, emptyServed: false });
    fc.assert(
      fc.property(fc.oneof(fc.uuid(), fc.string()), (text) => {
        fc.pre(text !== issued);
        expect(cache.resolve(text)).toBeNull();
      }),
    );
    expect(cache.resolve(issued.toUpperCase())).toBeNull();
  });

  it('forgets the least recently issued past its size, whatever was resolved since', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 30 }),
        fc.integer({ min: 0, max: 60 }),
        (size, extra) => {
          const cache = createCursorCache(size);
          const at = (next: number): CursorPosition => ({
            list: 'contract-events',
            listId: 1,
            next,
            emptyServed: false,
          });
          const issued = Array.from({ length: size + extra }, (_, n) => cache.issue(at(n)));
          // Reading a cursor does not keep it: only issuing order counts.
          cache.resolve(issued[0]!);
          issued.forEach((cursor, n) =>
            expect(cache.resolve(cursor)).toEqual(n < extra ? null : at(n)),
          );
          expect(cache.size()).toBe(size);
        },
      ),
    );
  });

  it('forgets every cursor on demand, and goes on issuing', () => {
    const cache = createCursorCache(10);
    const at: CursorPosition = { list: 'contracts', listId: 0, next: 0, emptyServed: true };
    const old = [cache.issue(at), cache.issue(at)];
    expect(cache.forget()).toBe(2);
    for (const cursor of old) expect(cache.resolve(cursor)).toBeNull();
    const fresh = cache.issue(at);
    expect(cache.resolve(fresh)).toEqual(at);
    expect(() => createCursorCache(0)).toThrow(RangeError);
  });
});
