import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  createCursorCodec,
  type CursorPosition,
  type CursorStyle,
  type ListKind,
} from '../../../src/server/sample-service/cursor';

const STYLES: CursorStyle[] = ['base64url', 'uuid'];
const LISTS: ListKind[] = ['contracts', 'contract-events', 'token-events'];

const position = fc.record<CursorPosition>({
  list: fc.constantFrom(...LISTS),
  after: fc.option(fc.integer({ min: 0, max: 0xffff_ffff }), { nil: null }),
  emptyServed: fc.boolean(),
});

describe('cursor codec', () => {
  it('decodes what it encodes', () => {
    fc.assert(
      fc.property(fc.constantFrom(...STYLES), position, (style, at) => {
        const codec = createCursorCodec('secret', style);
        expect(codec.decode(codec.encode(at))).toEqual(at);
      }),
    );
  });

  it('looks like a UUID in the uuid style', () => {
    const cursor = createCursorCodec('secret', 'uuid').encode({
      list: 'contracts',
      after: 3,
      emptyServed: false,
    });
    expect(cursor).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
  });

  it('rejects any edited cursor', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...STYLES),
        position,
        fc.nat(),
        fc.constantFrom(...'0123456789abcdefABCDEFxyz-_'),
        (style, at, place, replacement) => {
          const codec = createCursorCodec('secret', style);
          const cursor = codec.encode(at);
          const index = place % cursor.length;
          fc.pre(cursor[index] !== replacement);
          const edited = cursor.slice(0, index) + replacement + cursor.slice(index + 1);
          expect(codec.decode(edited)).toBeNull();
        },
      ),
    );
  });

  it('rejects cursors signed with another secret, and text that is no cursor', () => {
    const at: CursorPosition = { list: 'token-events', after: 42, emptyServed: false };
    for (const style of STYLES) {
      const other = createCursorCodec('other', style).encode(at);
      expect(createCursorCodec('secret', style).decode(other)).toBeNull();
    }
    fc.assert(
      fc.property(fc.string(), (text) => {
        expect(createCursorCodec('secret', 'uuid').decode(text)).toBeNull();
      }),
    );
  });
});
