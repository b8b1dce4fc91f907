import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Opaque keyset cursors. A cursor names the last row already served (its key), never an
 * offset, so a deep page costs what the first does and rows cannot be skipped or repeated.
 * Sixteen bytes: one of flags, four of row key, eleven of HMAC, so an edited cursor is
 * rejected and nothing about it has to be remembered by the service.
 */

export type ListKind = 'contracts' | 'contract-events' | 'token-events';

/** `uuid` is how the deployed service's cursors look; `base64url` is shorter. */
export type CursorStyle = 'base64url' | 'uuid';

export interface CursorPosition {
  list: ListKind;
  /** Key of the last row already served; null when nothing has been served yet. */
  after: number | null;
  /**
   * The deployed profile has just served an empty page at this position, so the next
   * request must serve rows: empty pages never repeat and a walk always ends.
   */
  emptyServed: boolean;
}

export interface CursorCodec {
  encode(position: CursorPosition): string;
  /** The position, or null when the text is not a cursor this codec issued. */
  decode(text: string): CursorPosition | null;
}

const LISTS: readonly ListKind[] = ['contracts', 'contract-events', 'token-events'];
const VERSION = 0x10;
const START = 0x04;
const EMPTY_SERVED = 0x08;
const PAYLOAD_BYTES = 5;
const CURSOR_BYTES = 16;
const UUID = /^([0-9a-f]{8})-([0-9a-f]{4})-([0-9a-f]{4})-([0-9a-f]{4})-([0-9a-f]{12})$/;
const BASE64URL = /^[A-Za-z0-9_-]{22}$/;

export function createCursorCodec(secret: string, style: CursorStyle): CursorCodec {
  const mac = (payload: Buffer): Buffer =>
    createHmac('sha256', secret)
      .update(payload)
      .digest()
      .subarray(0, CURSOR_BYTES - PAYLOAD_BYTES);

  return {
    encode({ list, after, emptyServed }) {
      const payload = Buffer.alloc(PAYLOAD_BYTES);
      payload[0] =
        VERSION |
        LISTS.indexOf(list) |
        (after === null ? START : 0) |
        (emptyServed ? EMPTY_SERVED : 0);
      payload.writeUInt32BE(after ?? 0, 1);
      const bytes = Buffer.concat([payload, mac(payload)]);
      if (style === 'base64url') return bytes.toString('base64url');
      const hex = bytes.toString('hex');
      return [
        hex.slice(0, 8),
        hex.slice(8, 12),
        hex.slice(12, 16),
        hex.slice(16, 20),
        hex.slice(20),
      ].join('-');
    },

    decode(text) {
      const uuid = UUID.exec(text);
      const bytes = uuid
        ? Buffer.from(uuid.slice(1).join(''), 'hex')
        : BASE64URL.test(text)
          ? Buffer.from(text, 'base64url')
          : null;
      // The last base64url digit carries unused bits: only the canonical spelling is valid.
      if (bytes?.length !== CURSOR_BYTES || (!uuid && bytes.toString('base64url') !== text)) {
        return null;
      }
      const payload = bytes.subarray(0, PAYLOAD_BYTES);
      if (!timingSafeEqual(bytes.subarray(PAYLOAD_BYTES), mac(payload))) return null;
      const flags = payload[0] ?? 0;
      const list = LISTS[flags & 0x03];
      if ((flags & 0xf0) !== VERSION || list === undefined) return null;
      return {
        list,
        after: flags & START ? null : payload.readUInt32BE(1),
        emptyServed: (flags & EMPTY_SERVED) !== 0,
      };
    },
  };
}
