import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { toCsv } from '../../../src/lib/export';

/**
 * Every CSV cell that a spreadsheet program could run as a formula starts with an
 * apostrophe, and every cell reads back as the value written (with that apostrophe). A
 * plain negative number (a loss) is no formula: it stays a number.
 */
// OWASP's CSV injection list (= + - @, tab, carriage return) and their fullwidth forms.
const FORMULA_STARTS = ['=', '+', '-', '@', '\t', '\r', '＝', '＋', '－', '＠'];

const PLAIN_NUMBER = /^-?[0-9]+(?:\.[0-9]+)?$/;

const cell = (value: string) => toCsv([{ value }], ['value']).slice('value\r\n'.length, -2);
/** A cell as a CSV reader reads it. */
const read = (text: string) =>
  text.startsWith('"') ? text.slice(1, -1).replace(/""/g, '"') : text;

describe('CSV cells', () => {
  it('keep any value starting with a formula sign, fullwidth or not, as text', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...FORMULA_STARTS),
        fc.string({ unit: 'grapheme' }),
        (sign, rest) => {
          fc.pre(!PLAIN_NUMBER.test(sign + rest));
          expect(read(cell(sign + rest))).toBe(`'${sign}${rest}`);
        },
      ),
      { numRuns: 500 },
    );
  });

  it('write any other value as it is', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme' }), (value) => {
        fc.pre(!FORMULA_STARTS.some((sign) => value.startsWith(sign)));
        expect(read(cell(value))).toBe(value);
      }),
      { numRuns: 500 },
    );
  });

  it('writes a plain negative number as it is', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 1n }), fc.nat(), (whole, fraction) => {
        const value = `-${whole}.${fraction}`;
        expect(cell(value)).toBe(value);
      }),
    );
  });

  it.each(['＝HYPERLINK("https://evil.example")', '＋1＋1', '－1', '＠SUM(A1)'])(
    'keeps the fullwidth %j from running as a formula: a leading apostrophe, quoted',
    (value) => {
      expect(cell(value)).toBe(`"'${value.replace(/"/g, '""')}"`);
    },
  );
});
