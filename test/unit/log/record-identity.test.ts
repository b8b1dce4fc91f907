import { describe, expect, it } from 'vitest';
import { keyHash, readListPage, readRecordKey } from '../../../src/server/log/list-page';

/** A record's identity tells a record already logged from a new one; it never merges two. */
describe('the identity of a logged record', () => {
  it('keeps distinct records without event id and transaction apart, and a repeat together', () => {
    const records = Array.from({ length: 300 }, (_, index) => ({
      contract_address: `0x${'a'.repeat(64)}`,
      event_type: 'transfer',
      token_id: '7',
      from_address: `0x${'1'.repeat(64)}`,
      to_address: `0x${'2'.repeat(64)}`,
      timestamp: 1_700_000_000 + index,
    }));
    const page = readListPage({ result: [...records, records[0]], cursor: null }, 'event');
    const keys = new Set(page.records.map((record) => record.key));
    expect(keys.size).toBe(300);
    // The same record as a number or as a string is the same record.
    const asText = { ...records[1], timestamp: String(records[1]!.timestamp) };
    expect(readRecordKey(JSON.stringify(asText), 'event')).toBe(page.records[1]!.key);
    // As the log keeps it: 16 bytes, one per identity.
    const hashes = new Set(page.records.map((record) => keyHash(record.key).toString('hex')));
    expect(hashes.size).toBe(300);
    expect(keyHash(page.records[0]!.key)).toHaveLength(16);
  });
});
