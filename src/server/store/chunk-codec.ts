import type { Chunk } from './engine';

/**
 * One chunk as one binary value, the same for both engines: its record count, where each
 * record ends, each record's time, then the records' text as it goes into a page. A page
 * served from the store is then a few byte ranges of stored values, never a JSON parse.
 *
 *   u32 count | u32 ends[count] | f64 ts[count] | body
 */
export function encodeChunk(chunk: Chunk): Buffer {
  const count = chunk.ends.length;
  const head = Buffer.alloc(4 + count * 12);
  head.writeUInt32LE(count, 0);
  chunk.ends.forEach((end, index) => head.writeUInt32LE(end, 4 + index * 4));
  chunk.ts.forEach((ts, index) => head.writeDoubleLE(ts, 4 + count * 4 + index * 8));
  return Buffer.concat([head, chunk.body]);
}

/** `bytes` must stay unchanged while the chunk is used (the body is a view of it). */
export function decodeChunk(first: number, bytes: Uint8Array): Chunk {
  const view = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const count = view.readUInt32LE(0);
  const ends: number[] = new Array(count);
  const ts: number[] = new Array(count);
  for (let index = 0; index < count; index++) {
    ends[index] = view.readUInt32LE(4 + index * 4);
    ts[index] = view.readDoubleLE(4 + count * 4 + index * 8);
  }
  return { first, ends, ts, body: view.subarray(4 + count * 12) };
}
