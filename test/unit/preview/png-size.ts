/** A PNG's width and height from its IHDR chunk, after checking the signature. */
export function pngSize(bytes: Uint8Array): { width: number; height: number } {
  const signature = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
  if (!signature.every((byte, index) => bytes[index] === byte)) throw new Error('not a PNG');
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const chunk = new TextDecoder().decode(bytes.subarray(12, 16));
  if (chunk !== 'IHDR') throw new Error('no IHDR first');
  return { width: view.getUint32(16), height: view.getUint32(20) };
}
