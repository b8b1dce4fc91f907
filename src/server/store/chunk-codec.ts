import { endianness } from 'node:os';
import type { Chunk } from './engine';

/**
 * One chunk as one binary value, the same for both engines: its record count, where each
 * record ends, each record's time, then the records' text as it goes into a page. A page
 * served from the store is then a few byte ranges of stored values, never a JSON parse.
 * Numbers are little-endian whatever the machine, so a store can move between machines.
 *
 *   u32 count | u32 ends[count] | f64 ts[count] | body
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

const LITTLE_ENDIAN = endianness() === 'LE';

/**
 * `bytes` must stay unchanged while the chunk is used (the body is a view of it). On a
 * little-endian machine (all but a few) the numbers are copied out in two moves into
 * arrays of their own (the stored value need not be aligned for typed-array views), not
 * read one by one: a chunk holds thousands, and serving a page decodes one or two.
 */
export function decodeChunk(first: number, bytes: Uint8Array): Chunk {
  const view = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const count = view.readUInt32LE(0);
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
  return { first, ends, ts, body: view.subarray(4 + count * 12) };
}
