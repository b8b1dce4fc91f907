import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * The log's own cursors for /api/v1: the place of the last record served (its time and
 * its place in the log). Signed with the server's secret and bound to the list, so a
 * cursor cannot be edited or used on another list, and every server sharing the database
 * reads the cursors the others issued. Nothing is remembered per cursor, and nothing in
 * the log is ever dropped, so a cursor never dies.
 */
export interface LogPosition {
  ts: number;
  seq: number;
}

const VERSION = 2;
const PAYLOAD_BYTES = 1 + 8 + 8;
const MAC_BYTES = 12;
const CURSOR_CHARS = Math.ceil(((PAYLOAD_BYTES + MAC_BYTES) * 4) / 3);

export function createLogCursors(secret: string) {
  const mac = (list: string, payload: Buffer): Buffer =>
    createHmac('sha256', secret).update(list).update(payload).digest().subarray(0, MAC_BYTES);

  return {
    encode(list: string, { ts, seq }: LogPosition): string {
      const payload = Buffer.alloc(PAYLOAD_BYTES);
      payload.writeUInt8(VERSION, 0);
      payload.writeBigInt64BE(BigInt(ts), 1);
      payload.writeBigInt64BE(BigInt(seq), 9);
      return Buffer.concat([payload, mac(list, payload)]).toString('base64url');
    },

    /** The position, or null when the text is not a cursor of ours for this list. */
    decode(list: string, text: string): LogPosition | null {
      if (text.length !== CURSOR_CHARS || !/^[A-Za-z0-9_-]+$/.test(text)) return null;
      const bytes = Buffer.from(text, 'base64url');
      if (bytes.length !== PAYLOAD_BYTES + MAC_BYTES || bytes.toString('base64url') !== text) {
        return null;
      }
      const payload = bytes.subarray(0, PAYLOAD_BYTES);
      if (!timingSafeEqual(bytes.subarray(PAYLOAD_BYTES), mac(list, payload))) return null;
      if (payload.readUInt8(0) !== VERSION) return null;
      return { ts: Number(payload.readBigInt64BE(1)), seq: Number(payload.readBigInt64BE(9)) };
    },
  };
}
