import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Cursors name keyset positions: the next row to serve (its key), never an offset, so a
 * deep page costs what the first does and rows cannot be skipped or repeated, even while
 * new events join the head of a list. How a
 * position becomes a cursor differs by profile: the documented one signs it into the cursor
 * itself (here), the deployed one keeps it server-side under a random UUID, as the real
 * service does (cursor-cache.ts).
 */

export type ListKind = 'contracts' | 'contract-events' | 'token-events';

export interface CursorPosition {
  list: ListKind;
  /** Which list of its kind: 0 for the contracts, else the contract's or the token's index. */
  listId: number;
  /** Key of the next row to serve. */
  next: number;
  /**
   * The deployed profile has just served an empty page at this position, so the next
   * request must serve rows: empty pages never repeat and a walk always ends.
   */
  emptyServed: boolean;
}

export interface CursorScheme {
  /** A cursor for the page after `position`. */
  issue(position: CursorPosition): string;
  /** The position a cursor names, or null when it names none (edited, never issued, forgotten). */
  resolve(text: string): CursorPosition | null;
}

const LISTS: readonly ListKind[] = ['contracts', 'contract-events', 'token-events'];
const VERSION = 0x20;
const EMPTY_SERVED = 0x08;
/** Flags, list id and row key; the rest of the sixteen bytes is HMAC. */
const PAYLOAD_BYTES = 9;
const CURSOR_BYTES = 16;
const BASE64URL = /^[A-Za-z0-9_-]{22}$/;

/**
 * Stateless cursors: sixteen bytes (base64url) whose HMAC makes an edited cursor invalid,
 * so nothing about them has to be remembered by the service.
 */
export function createSignedCursors(secret: string): CursorScheme {
  const mac = (payload: Buffer): Buffer =>
    createHmac('sha256', secret)
      .update(payload)
      .digest()
      .subarray(0, CURSOR_BYTES - PAYLOAD_BYTES);

  return {
    issue({ list, listId, next, emptyServed }) {
      const payload = Buffer.alloc(PAYLOAD_BYTES);
      payload[0] = VERSION | LISTS.indexOf(list) | (emptyServed ? EMPTY_SERVED : 0);
      payload.writeUInt32BE(listId, 1);
      payload.writeUInt32BE(next, 5);
      return Buffer.concat([payload, mac(payload)]).toString('base64url');
    },

    resolve(text) {
      if (!BASE64URL.test(text)) return null;
      const bytes = Buffer.from(text, 'base64url');
      // The last base64url digit carries unused bits: only the canonical spelling is valid.
      if (bytes.length !== CURSOR_BYTES || bytes.toString('base64url') !== text) return null;
      const payload = bytes.subarray(0, PAYLOAD_BYTES);
      if (!timingSafeEqual(bytes.subarray(PAYLOAD_BYTES), mac(payload))) return null;
      const flags = payload[0] ?? 0;
      const list = LISTS[flags & 0x03];
      if ((flags & 0xf4) !== VERSION || list === undefined) return null;
      return {
        list,
        listId: payload.readUInt32BE(1),
        next: payload.readUInt32BE(5),
        emptyServed: (flags & EMPTY_SERVED) !== 0,
      };
    },
  };
}
