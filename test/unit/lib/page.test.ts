import { describe, expect, it } from 'vitest';
import { readPageEnvelope } from '../../../src/lib/page';

// One reader for both sides: the proxy serves and caches what it accepts, the browser reads it.
describe('readPageEnvelope', () => {
  it('reads the records and the next cursor; null, "" and absent all mean the end', () => {
    expect(readPageEnvelope({ result: [1, 2], cursor: 'c1', extra: true })).toEqual({
      result: [1, 2],
      cursor: 'c1',
    });
    for (const cursor of [null, '', undefined]) {
      expect(readPageEnvelope({ result: [], cursor })).toEqual({ result: [], cursor: null });
    }
    expect(readPageEnvelope({})).toEqual({ result: [], cursor: null });
    expect(readPageEnvelope({ result: null })).toEqual({ result: [], cursor: null });
  });

  it.each([
    ['a list', [1, 2]],
    ['null', null],
    ['a string', 'page'],
    ['a result that is not a list', { result: 'x' }],
    ['a result that is an object', { result: { 0: 1 } }],
    ['a cursor that is not text', { result: [], cursor: 5 }],
  ])('refuses %s', (_name, value) => {
    expect(readPageEnvelope(value)).toBeNull();
  });
});
