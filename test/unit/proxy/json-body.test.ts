import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  MAX_JSON_DEPTH,
  nestedDeeperThan,
  parseJsonBody,
} from '../../../src/server/upstream/json-body';

const bytes = (text: string) => new TextEncoder().encode(text);

/** Nesting depth of a parsed JSON value: a scalar is 0, `[]` and `{}` are 1. */
function depthOf(value: unknown): number {
  if (Array.isArray(value)) return 1 + Math.max(0, ...value.map(depthOf));
  if (value !== null && typeof value === 'object') {
    return 1 + Math.max(0, ...Object.values(value).map(depthOf));
  }
  return 0;
}

describe('nesting depth, before JSON.parse', () => {
  it.each([
    ['a page', '{"result":[{"a":"b"}],"cursor":null}', 3, false],
    ['brackets inside strings', '{"a":"[[[[{{{{"}', 1, false],
    ['escaped quotes', '{"a":"\\"[[[[\\\\"}', 1, false],
    ['an unterminated string', '{"a":"[[[[', 1, false],
    ['depth reached after a string', `{"a":"]]]]]",${'['.repeat(40)}`, 32, true],
    ['exactly the limit', '['.repeat(32) + ']'.repeat(32), 32, false],
    ['one past it', '['.repeat(33) + ']'.repeat(33), 32, true],
  ])('%s', (_name, text, limit, deeper) => {
    expect(nestedDeeperThan(bytes(text), limit)).toBe(deeper);
  });

  it('is deeper than the limit exactly when the value is, for any JSON', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 8 }), fc.integer({ min: 0, max: 8 }), (value, limit) => {
        expect(nestedDeeperThan(bytes(JSON.stringify(value)), limit)).toBe(depthOf(value) > limit);
      }),
      { numRuns: 300 },
    );
  });
});

describe('parsing an upstream body', () => {
  it('parses what JSON.parse parses, text of any language included', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 6 }), (value) => {
        const text = JSON.stringify(value);
        expect(parseJsonBody(bytes(text))).toEqual(JSON.parse(text));
      }),
      { numRuns: 200 },
    );
  });

  it.each([
    ['a stray byte', [0x7b, 0xff, 0x7d]],
    ['a cut sequence', [0x22, 0xc3, 0x22]],
    ['an overlong slash', [0x22, 0xc0, 0xaf, 0x22]],
    ['a surrogate half', [0x22, 0xed, 0xa0, 0x80, 0x22]],
  ])('refuses %s: not UTF-8', (_name, body) => {
    expect(() => parseJsonBody(new Uint8Array(body))).toThrow();
  });

  it('refuses nesting past the limit without parsing it', () => {
    const deep = `{"result":${'['.repeat(MAX_JSON_DEPTH)}${']'.repeat(MAX_JSON_DEPTH)}}`;
    expect(() => parseJsonBody(bytes(deep))).toThrow(/deeper than 32/);
    const fits = `{"result":${'['.repeat(MAX_JSON_DEPTH - 1)}${']'.repeat(MAX_JSON_DEPTH - 1)}}`;
    expect(parseJsonBody(bytes(fits))).toBeTypeOf('object');
  });
});
