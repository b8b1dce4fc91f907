import { endianness } from 'node:os';
import { crc32 } from 'node:zlib';
import type { Chunk } from './engine';

/**
 * One chunk as one binary value, the same for both engines: its record count, where each
 * record ends, each record's time, then the records' text as it goes into a page. A page
 * served from the store is then a few byte ranges of stored values, never a JSON parse.
 * Numbers are little-endian whatever the machine, so a store can move between machines.
 *
 *   u32 count | u32 ends[count] | f64 ts[count] | body
 *
 * Each stored value has its CRC-32 (`chunkChecksum`) kept beside it, checked when it is
 * decoded: damaged bytes (a disk, a hand-made UPDATE) are refused with a
 * `DamagedChunkError`, never served as a page of altered records or invalid JSON.
 */
export function encodeChunk(chunk: Chunk): Buffer {
  const count = chunk.ends.length;
  const head = Buffer.alloc(4 + count * 12);
  head.writeUInt32LE(count, 0);
  for (let index = 0; index < count; index++) {
    head.writeUInt32LE(chunk.ends[index] as number, 4 + index * 4);
    head.writeDoubleLE(chunk.ts[index] as number, 4 + count * 4 + index * 8);
  }
  return Buffer.concat([head, chunk.body]);
}

/** The checksum kept with an encoded chunk (a signed 32-bit number, as PostgreSQL's integer). */
export const chunkChecksum = (bytes: Uint8Array): number => crc32(bytes) | 0;

/**
 * A stored chunk whose bytes are not what was written. Its `code` is PostgreSQL's
 * SQLSTATE for corrupted data (XX001), so the proxy answers it as the database's damage
 * (a 503 naming the database), as it would PostgreSQL's own checksum failure.
 */
export class DamagedChunkError extends Error {
  readonly code = 'XX001';
  constructor(list: string, first: number, what: string) {
    super(`stored chunk ${first} of list ${list} is damaged: ${what}`);
    this.name = 'DamagedChunkError';
  }
}

const LITTLE_ENDIAN = endianness() === 'LE';
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const COMMA = 0x2c;

/**
 * `bytes` must stay unchanged while the chunk is used (the body is a view of it). On a
 * little-endian machine (all but a few) the numbers are copied out in two moves into
 * arrays of their own (the stored value need not be aligned for typed-array views), not
 * read one by one: a chunk holds thousands, and serving a page decodes one or two.
 *
 * With `checksum` (chunks written before checksums were kept have none) the bytes must
 * match it; either way the structure must hold: the offsets within the body and rising,
 * each record an object (`{…}`) with a comma between two. Anything else throws a
 * `DamagedChunkError` naming `list`.
 */
export function decodeChunk(
  first: number,
  bytes: Uint8Array,
  checksum?: number | null,
  list = '?',
): Chunk {
  const damaged = (what: string) => new DamagedChunkError(list, first, what);
  if (checksum !== undefined && checksum !== null && chunkChecksum(bytes) !== checksum) {
    throw damaged('its checksum does not match');
  }
  const view = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (view.byteLength < 4) throw damaged(`${view.byteLength} bytes, too short`);
  const count = view.readUInt32LE(0);
  if (count === 0 || 4 + count * 12 > view.byteLength) {
    throw damaged(`it claims ${count} records in ${view.byteLength} bytes`);
  }
  const ends = new Uint32Array(count);
  const ts = new Float64Array(count);
  if (LITTLE_ENDIAN) {
    new Uint8Array(ends.buffer).set(view.subarray(4, 4 + count * 4));
    new Uint8Array(ts.buffer).set(view.subarray(4 + count * 4, 4 + count * 12));
  } else {
    for (let index = 0; index < count; index++) {
      ends[index] = view.readUInt32LE(4 + index * 4);
      ts[index] = view.readDoubleLE(4 + count * 4 + index * 8);
    }
  }
  const body = view.subarray(4 + count * 12);
  // Each record runs from just past the comma (or the start) to its end, `{` to `}`.
  let start = 0;
  for (let index = 0; index < count; index++) {
    const end = ends[index]!;
    if (end <= start || end > body.byteLength || (index === count - 1 && end !== body.byteLength)) {
      throw damaged(`record ${index} ends at ${end}, outside ${start}…${body.byteLength}`);
    }
    if (body[start] !== OPEN_BRACE || body[end - 1] !== CLOSE_BRACE) {
      throw damaged(`record ${index} is not an object`);
    }
    if (index < count - 1 && body[end] !== COMMA) throw damaged(`no comma after record ${index}`);
    if (!Number.isFinite(ts[index]!)) throw damaged(`record ${index} has no time`);
    start = end + 1;
  }
  return { first, ends, ts, body };
}
