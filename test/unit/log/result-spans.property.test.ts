import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { resultSpans } from '../../../src/server/log/result-spans';

/**
 * The spans of a page's records, cut from its bytes, are the records: parsed, each equals
 * the parsed page's record, whatever the JSON holds (strings with quotes, backslashes,
 * brackets and non-ASCII text, nesting, numbers, other keys before and after `result`,
 * spaces and new lines anywhere JSON allows them).
 */
const value = fc.letrec((tie) => ({
  json: fc.oneof(
    { depthSize: 'small' },
    fc.string({ unit: 'grapheme' }),
    fc.string({ unit: fc.constantFrom('"', '\\', '[', ']', '{', '}', ',', ':', 'a', 'é', '😀') }),
    fc.integer(),
    fc.double({ noNaN: true, noDefaultInfinity: true }),
    fc.boolean(),
    fc.constant(null),
    fc.array(tie('json'), { maxLength: 3 }),
    fc.dictionary(fc.string({ maxLength: 6 }), tie('json'), { maxKeys: 3 }),
  ),
})).json;

const record = fc.dictionary(fc.constantFrom('event_id', 'timestamp', 'note', 'x"y', '[]'), value, {
  maxKeys: 4,
});

const page = fc.record({
  before: fc.dictionary(fc.constantFrom('cursor', 'note', 'results', 'result_'), value, {
    maxKeys: 2,
  }),
  result: fc.array(fc.oneof(record, value), { maxLength: 8 }),
  after: fc.dictionary(fc.constantFrom('cursor', 'next', 'resultx'), value, { maxKeys: 2 }),
  indent: fc.constantFrom(undefined, 0, 1, 2, '\t'),
});

describe('a page cut into its records’ bytes', () => {
  it('gives each record’s exact JSON', () => {
    fc.assert(
      fc.property(page, ({ before, result, after, indent }) => {
        const text = JSON.stringify({ ...before, result, ...after }, null, indent);
        const body = Buffer.from(text);
        const spans = resultSpans(body);
        expect(spans).not.toBeNull();
        const parsed = (JSON.parse(text) as { result: unknown[] }).result;
        expect(spans).toHaveLength(parsed.length);
        spans!.forEach(([start, end], index) => {
          expect(JSON.parse(body.subarray(start, end).toString())).toEqual(parsed[index]);
        });
      }),
      { numRuns: 500 },
    );
  });

  it('finds no records where there is no result, and a null result is empty', () => {
    expect(resultSpans(Buffer.from('{}'))).toEqual([]);
    expect(resultSpans(Buffer.from('{"cursor":"a"}'))).toEqual([]);
    expect(resultSpans(Buffer.from('{"result":null,"cursor":null}'))).toEqual([]);
    expect(resultSpans(Buffer.from('{"result":[]}'))).toEqual([]);
    expect(resultSpans(Buffer.from('{"result":[1,{"a":"]"}]}'))).toEqual([
      [11, 12],
      [13, 22],
    ]);
  });
});
