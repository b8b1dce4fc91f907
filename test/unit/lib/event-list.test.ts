import { describe, expect, it } from 'vitest';
import { eventComparators, sortEvents } from '../../../src/lib/event-list';

const A = (digits: string) => `0x${digits.padStart(64, '0')}`;

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
