import { describe, expect, it } from 'vitest';
import { eventComparators, sortEvents } from '../../../src/lib/event-list';
import { safeImageUrl } from '../../../src/lib/image-url';
import { parseLookup } from '../../../src/lib/lookup';
import { canonicalEventSearch, parseKinds, parseSort } from '../../../src/lib/view-state';

const A = (digits: string) => `0x${digits.padStart(64, '0')}`;

describe('safeImageUrl', () => {
  it.each([
    ['https://example.com/a.png', 'https://example.com/a.png'],
    ['http://example.com/a.png', 'https://example.com/a.png'],
    ['ipfs://bafy123/1.png', 'https://gw.test/ipfs/bafy123/1.png'],
    ['ipfs://ipfs/bafy123/1.png', 'https://gw.test/ipfs/bafy123/1.png'],
    ['data:image/svg+xml,%3Csvg%3E', 'data:image/svg+xml,%3Csvg%3E'],
    ['javascript:alert(1)', null],
    ['JaVaScRiPt:alert(1)', null],
    ['data:text/html,<script>alert(1)</script>', null],
    ['ipfs://../../etc', null],
    ['', null],
    [undefined, null],
    ['garbage', null],
    ['//evil.example/x.png', null],
  ])('%s → %s', (input, expected) => {
    expect(safeImageUrl(input, 'https://gw.test/ipfs/')).toBe(expected);
  });
});

describe('parseLookup', () => {
  it.each([
    ['0xabc', { address: A('abc') }],
    ['  0xABC  ', { address: A('abc') }],
    ['0xabc 12', { address: A('abc'), tokenId: '12' }],
    ['0xabc/0x0c', { address: A('abc'), tokenId: '12' }],
    ['0xabc:12', { address: A('abc'), tokenId: '12' }],
    [
      `https://dash.example/contracts/${A('abc')}/tokens/12?x=1`,
      { address: A('abc'), tokenId: '12' },
    ],
  ])('%s', (input, expected) => {
    expect(parseLookup(input)).toEqual({ ok: true, value: expected });
  });

  it.each(['', 'hello', '0xabc 12 13', '0xabc -1', '0xabc 1.5'])('refuses %j', (input) => {
    const parsed = parseLookup(input);
    expect(parsed.ok).toBe(false);
  });
});

describe('view state in the URL', () => {
  it('canonicalises the search of an events view', () => {
    const params = new URLSearchParams(
      `time=abs&kind=SALE,mint,nope&address=0xABC&sort=-time&junk=1`,
    );
    expect(canonicalEventSearch(params, ['time'])).toBe(
      `?address=${A('abc')}&kind=mint%2Csale&sort=-time&time=abs`,
    );
    expect(canonicalEventSearch(new URLSearchParams('address=bad&sort=nope'), ['time'])).toBe('');
  });

  it('parses sort and kinds forgivingly', () => {
    expect(parseSort('-time', ['time'])).toEqual({ id: 'time', desc: true });
    expect(parseSort('price', ['time'])).toBeNull();
    expect(parseKinds('burn,,mint')).toEqual(['mint', 'burn']);
  });
});

describe('sortEvents', () => {
  it('sorts by Event as the rows show it, not by the upstream’s label', () => {
    // The later serializer labels mints and burns `transfer` too.
    const rows = [
      { kind: 'transfer' as const, label: 'transfer' },
      { kind: 'mint' as const, label: 'transfer' },
      { kind: 'sale' as const, label: 'sale' },
      { kind: 'burn' as const, label: 'transfer' },
      { kind: 'other' as const, label: 'approval' },
      { kind: 'mint' as const, label: 'mint' },
    ].map((row, index) => ({ ...row, from: A('1'), to: A('2'), tokenId: '1', timestamp: index }));
    expect(sortEvents(rows, { id: 'kind', desc: false }).map((row) => row.kind)).toEqual([
      'other',
      'burn',
      'mint',
      'mint',
      'sale',
      'transfer',
    ]);
  });

  const make = (tokenId: string, timestamp: number, price?: string) => ({
    kind: 'transfer' as const,
    label: 'transfer',
    from: A('1'),
    to: A('2'),
    tokenId,
    timestamp,
    ...(price !== undefined && { price }),
  });

  it('orders by the comparators, stably, with and without the numeric fast path', () => {
    const short = [make('10', 3), make('9', 1, '500'), make('10', 2), make('1', 2, '7')];
    const long = [...short, make('1'.repeat(40), 0, '9'.repeat(30))];
    for (const events of [short, long]) {
      for (const id of ['token', 'time'] as const) {
        for (const desc of [false, true]) {
          const expected = [...events].sort(
            (a, b) => (desc ? -1 : 1) * eventComparators[id]!(a, b),
          );
          expect(sortEvents(events, { id, desc })).toEqual(expected);
        }
      }
    }
    expect(sortEvents(short, { id: 'token', desc: false }).map((e) => e.timestamp)).toEqual([
      2, 1, 3, 2,
    ]);
  });
});
