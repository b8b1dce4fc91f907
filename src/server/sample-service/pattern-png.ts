import { deflateSync } from 'node:zlib';

const CELLS = 5;
const CELL_PIXELS = 12;
const SIZE = CELLS * CELL_PIXELS;

/**
 * A collection's picture for the sample service: a 5×5 mirrored pattern in one colour on
 * a light ground, as a PNG `data:` URI. Raster, as the server serves contract images only
 * as raster pictures; inline, so no image needs the network.
 */
export function patternPng(bits: number, hue: number): string {
  const [r, g, b] = hslToRgb(hue, 0.62, 0.42);
  const rows: Buffer[] = [];
  for (let y = 0; y < SIZE; y++) {
    const row = Buffer.alloc(1 + SIZE * 3, 0xf2);
    row[0] = 0; // no filter
    for (let x = 0; x < SIZE; x++) {
      const column = Math.floor(x / CELL_PIXELS);
      // Columns 3 and 4 mirror 1 and 0: 15 bits draw the whole pattern.
      const bit = Math.floor(y / CELL_PIXELS) * 3 + Math.min(column, CELLS - 1 - column);
      if ((bits >> bit) & 1) row.set([r, g, b], 1 + x * 3);
    }
    rows.push(row);
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(SIZE, 0);
  header.writeUInt32BE(SIZE, 4);
  header.set([8, 2, 0, 0, 0], 8); // 8-bit RGB, no interlace
  const png = Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(Buffer.concat(rows))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
  return `data:image/png;base64,${png.toString('base64')}`;
}

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(bytes: Buffer): number {
  let c = 0xffffffff;
  for (const byte of bytes) c = CRC_TABLE[(c ^ byte) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function hslToRgb(hue: number, saturation: number, lightness: number): [number, number, number] {
  const a = saturation * Math.min(lightness, 1 - lightness);
  const channel = (n: number) => {
    const k = (n + hue / 30) % 12;
    return Math.round(255 * (lightness - a * Math.max(-1, Math.min(k - 3, 9 - k, 1))));
  };
  return [channel(0), channel(8), channel(4)];
}
