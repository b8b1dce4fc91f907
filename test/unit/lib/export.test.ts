import { describe, expect, it } from 'vitest';
import { toCsv, toJson } from '../../../src/lib/export';

const cell = (value: string | number | undefined) => toCsv([{ value }], ['value']).split('\r\n')[1];

describe('CSV export', () => {
  // A spreadsheet program runs a cell that starts with one of these as a formula.
  it.each(['=HYPERLINK("https://evil.example")', '+1+1', '-1+2', '@SUM(A1)', '\tx', '\rx'])(
    'keeps %j from running as a formula: a leading apostrophe, quoted',
    (value) => {
      const text = cell(value)!;
      expect(text.startsWith(`"'`)).toBe(true);
      expect(text.slice(2, -1).replace(/""/g, '"')).toBe(value);
    },
  );

  it('leaves other values as they are, quoting only what CSV needs', () => {
    expect(cell('856292')).toBe('856292');
    expect(cell(1706896016)).toBe('1706896016');
    expect(cell('-0.25')).toBe('-0.25');
    expect(cell('-12')).toBe('-12');
    expect(cell('a, b')).toBe('"a, b"');
    expect(cell('say "hi"')).toBe('"say ""hi"""');
    expect(cell(undefined)).toBe('');
    expect(toCsv([], ['a', 'b'])).toBe('a,b\r\n');
  });

  it('writes JSON with the rows, their count and the metadata', () => {
    expect(JSON.parse(toJson([{ a: '1' }], { contract: '0x1' }))).toEqual({
      contract: '0x1',
      count: 1,
      rows: [{ a: '1' }],
    });
  });
});
