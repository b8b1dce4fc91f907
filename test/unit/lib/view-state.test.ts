import { describe, expect, it } from 'vitest';
import { readEventSearch } from '../../../src/lib/event-view';
import { parseKinds, parseSort } from '../../../src/lib/view-state';

const A = (digits: string) => `0x${digits.padStart(64, '0')}`;

describe('view state in the URL', () => {
  it('canonicalises the search of an events view', () => {
    const params = new URLSearchParams(
      `time=abs&kind=SALE,mint,nope&address=0xABC&sort=-time&junk=1`,
    );
    expect(readEventSearch(params).search).toBe(`?address=${A('abc')}&kind=mint%2Csale&time=abs`);
    expect(readEventSearch(new URLSearchParams('address=bad&sort=nope')).search).toBe('');
  });

  it('parses sort and kinds forgivingly', () => {
    expect(parseSort('-time', ['time'])).toEqual({ id: 'time', desc: true });
    expect(parseSort('price', ['time'])).toBeNull();
    expect(parseKinds('burn,,mint')).toEqual(['mint', 'burn']);
  });
});
