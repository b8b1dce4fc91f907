import { createHash } from 'node:crypto';
import type { PageEnvelope } from '../../lib/page';
import { resultSpans } from './result-spans';

/**
 * An upstream page cut into the records the store keeps. Each record is kept as its own
 * JSON, the very bytes the service sent (what the browser's normaliser reads, whatever
 * variation of the service sent it), with the two things the store must know about it:
 * its time, which orders a contract's events, and an identity, which tells a record
 * already stored from a new one when the head of a list is read again or a walk is
 * resumed from the head.
 */
export interface StoredRecord {
  /** The record as JSON, ready to be placed in a page. */
  json: Uint8Array;
  /** Unix seconds; 0 when the record has none (contracts). */
  ts: number;
  /** Equal for two reads of the same record, different for two records. */
  key: string;
}

export interface ListPage {
  records: StoredRecord[];
  /** The upstream's next cursor; null at the end (absent, `null` or `""`). */
  cursor: string | null;
}

/** How records of a list are told apart. */
export type RecordIdentity = 'event' | 'contract';

// Fields that together name one event record: a sale and its transfer twin share the
// transaction and the token but not the type; two transfers of one transaction differ in
// their token or their addresses. Sale records name their contract `nft_contract_address`.
const EVENT_IDENTITY = [
  'transaction_hash',
  'event_id',
  'event_type',
  'token_id',
  'token_id_hex',
  'from_address',
  'to_address',
] as const;

/**
 * The records of a page's envelope, parsed from `body`. Each record's JSON is cut out of
 * the body when it can be found there (see result-spans.ts), else written anew. Values
 * are kept as sent; identities use them as text, so `"1706896016"` and `1706896016` name
 * the same thing.
 */
export function readListPage(
  envelope: PageEnvelope,
  identity: RecordIdentity,
  body?: Uint8Array,
): ListPage {
  const spans = body && resultSpans(body);
  const cut = spans?.length === envelope.result.length ? spans : undefined;
  const records = envelope.result.map((item, index): StoredRecord => {
    const record = (item ?? {}) as Record<string, unknown>;
    const span = cut?.[index];
    return {
      json: span ? body!.subarray(span[0], span[1]) : Buffer.from(JSON.stringify(item)),
      ts: timestampOf(record.timestamp),
      key: keyOf(record, identity),
    };
  });
  return { records, cursor: envelope.cursor };
}

/** The identity of a stored record, from its JSON text. */
export function readRecordKey(text: string, identity: RecordIdentity): string {
  return keyOf(JSON.parse(text) as Record<string, unknown>, identity);
}

const keyOf = (record: Record<string, unknown>, identity: RecordIdentity): string =>
  identity === 'event' ? eventKey(record) : contractKey(record);

function timestampOf(value: unknown): number {
  const number = Math.trunc(typeof value === 'number' ? value : Number(value));
  // Kept as a bigint column: anything a unix time cannot be is no time at all.
  return Number.isSafeInteger(number) && number >= 0 ? number : 0;
}

const text = (value: unknown): string =>
  value === undefined || value === null ? '' : String(value).toLowerCase();

function eventKey(record: Record<string, unknown>): string {
  // Without an event id and a transaction, the fields above can be equal for distinct
  // records (two transfers of one token at different times): all the record says names it.
  if (text(record.event_id) === '' && text(record.transaction_hash) === '') {
    const fields = Object.keys(record).sort();
    return `record|${fields.map((field) => `${field}=${text(record[field])}`).join('|')}`;
  }
  return EVENT_IDENTITY.map((field) => text(record[field])).join('|');
}

function contractKey(record: Record<string, unknown>): string {
  return text(record.contract_address);
}

/** A record's identity as the log keeps it: 16 bytes of its SHA-256. */
export const keyHash = (key: string): Buffer =>
  createHash('sha256').update(key).digest().subarray(0, 16);
