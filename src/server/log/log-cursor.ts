import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * The store's own cursors: which generation of a list, and the number of the last record
 * served. Signed with the store's secret and bound to the list, so a cursor cannot be
 * edited or used on another list, and every server sharing the store reads the cursors
 * the others issued. Nothing is remembered per cursor: a cursor lives as long as its
 * generation of the list.
 */
export interface StorePosition {
  generation: number;
  /** Number of the last record already served. */
  after: number;
}

const VERSION = 1;
const PAYLOAD_BYTES = 1 + 4 + 8;
const MAC_BYTES = 12;
const CURSOR_CHARS = Math.ceil(((PAYLOAD_BYTES + MAC_BYTES) * 4) / 3);

export function createStoreCursors(secret: string) {
  const mac = (list: string, payload: Buffer): Buffer =>
    createHmac('sha256', secret).update(list).update(payload).digest().subarray(0, MAC_BYTES);

  return {
    encode(list: string, { generation, after }: StorePosition): string {
      const payload = Buffer.alloc(PAYLOAD_BYTES);
      payload.writeUInt8(VERSION, 0);
      payload.writeUInt32BE(generation, 1);
      payload.writeBigInt64BE(BigInt(after), 5);
      return Buffer.concat([payload, mac(list, payload)]).toString('base64url');
    },

    /** The position, or null when the text is not a cursor of this store for this list. */
    decode(list: string, text: string): StorePosition | null {
      if (text.length !== CURSOR_CHARS || !/^[A-Za-z0-9_-]+$/.test(text)) return null;
      const bytes = Buffer.from(text, 'base64url');
      if (bytes.length !== PAYLOAD_BYTES + MAC_BYTES || bytes.toString('base64url') !== text) {
        return null;
      }
      const payload = bytes.subarray(0, PAYLOAD_BYTES);
      if (!timingSafeEqual(bytes.subarray(PAYLOAD_BYTES), mac(list, payload))) return null;
      if (payload.readUInt8(0) !== VERSION) return null;
      return {
        generation: payload.readUInt32BE(1),
        after: Number(payload.readBigInt64BE(5)),
      };
    },
  };
}

export type StoreCursors = ReturnType<typeof createStoreCursors>;
