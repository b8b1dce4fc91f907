import { describe, expect, it } from 'vitest';
import { eventOfRow, tokenPath } from '../../../src/api/token';
import type { EventRow } from '../../../src/lib/answers';

const A = (digits: string) => `0x${digits.padStart(64, '0')}`;

const row: EventRow = {
  id: '42',
  key: '42',
  eventId: '0x1_1',
  kind: 'sale',
  label: 'sale',
  contractAddress: A('c0'),
  from: A('a'),
  to: A('b'),
  tokenId: '7',
  tokenIdHex: A('7'),
  timestamp: 1_700_000_000,
  transactionHash: A('feed'),
  records: 'transfer+sale',
  washFlags: ['buyer is the seller'],
};

describe('the token answer’s rows as the table reads events', () => {
  it('keeps the event’s fields and its wash flags, and leaves out the index’s own', () => {
    const event = eventOfRow({ ...row, price: '5', currencyAddress: A('e7') });
    // The index's own: its row id, the hex id, and `records`, the records joined.
    const indexOnly = new Set(['id', 'tokenIdHex', 'records']);
    const shared = Object.fromEntries(Object.entries(row).filter(([key]) => !indexOnly.has(key)));
    // The wash flags among them: a token's rows show them as a collection's rows do.
    expect(shared).toHaveProperty('washFlags', ['buyer is the seller']);
    expect(event).toEqual({ ...shared, price: '5', currencyAddress: A('e7') });
  });

  it('shows a price that is no number as sent', () => {
    expect(eventOfRow({ ...row, priceText: 'one ether' }).price).toBe('one ether');
  });

  it('asks the token route of the query API', () => {
    expect(tokenPath(A('c0'), '7')).toBe(`/api/collections/${A('c0')}/tokens/7`);
  });
});
