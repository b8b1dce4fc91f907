/**
 * Deterministic randomness for the sample data. Two kinds are needed:
 * - a sequential generator (sfc32) for the simulation, which runs once in a fixed order;
 * - a stateless hash (murmur3 mixing) for values derived lazily from an id, such as the
 *   64-digit hashes of 320,000 events, which would cost too much memory to keep as strings.
 */

export interface Random {
  /** Uniform in [0, 1). */
  float(): number;
  /** Uniform integer in [0, maxExclusive). */
  int(maxExclusive: number): number;
  chance(probability: number): boolean;
  pick<T>(items: readonly T[]): T;
  u32(): number;
}

export function createRandom(...seedParts: number[]): Random {
  let a = hash32(...seedParts, 1);
  let b = hash32(...seedParts, 2);
  let c = hash32(...seedParts, 3);
  let d = hash32(...seedParts, 4);
  const u32 = (): number => {
    // sfc32: small, fast and good enough for simulated activity.
    const t = (((a + b) | 0) + d) | 0;
    d = (d + 1) | 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) | 0;
    c = (c << 21) | (c >>> 11);
    c = (c + t) | 0;
    return t >>> 0;
  };
  const float = (): number => u32() / 0x1_0000_0000;
  const int = (maxExclusive: number): number => Math.floor(float() * maxExclusive);
  return {
    u32,
    float,
    int,
    chance: (probability) => float() < probability,
    pick: <T>(items: readonly T[]): T => {
      const item = items[int(items.length)];
      if (item === undefined) throw new RangeError('pick() needs a non-empty list');
      return item;
    },
  };
}

/** A 32-bit hash of a few integers (each taken modulo 2^32). */
export function hash32(...parts: number[]): number {
  let h = HASH_START;
  for (const part of parts) h = mix(h, part);
  return finish(h, parts.length);
}

/**
 * `count` hex digits, 8 per 32-bit word: word n is `hash32(...parts, n)`, the parts mixed
 * once for all the words, the words written into one buffer and read as hex.
 */
export function hexDigits(count: number, ...parts: number[]): string {
  let prefix = HASH_START;
  for (const part of parts) prefix = mix(prefix, part);
  const words = Math.ceil(count / 8);
  const buffer = words * 4 <= scratch.length ? scratch : Buffer.alloc(words * 4);
  for (let word = 0; word < words; word += 1) {
    buffer.writeUInt32BE(finish(mix(prefix, word), parts.length + 1), word * 4);
  }
  return buffer.toString('hex', 0, words * 4).slice(0, count);
}

/** Room for the 64 digits of a field element, reused: hexDigits runs to the end at once. */
const scratch = Buffer.alloc(32);

const HASH_START = 0x9747b28c;

/** murmur3's step for one 32-bit part. */
function mix(h: number, part: number): number {
  let k = Math.imul(part >>> 0, 0xcc9e2d51);
  k = Math.imul((k << 15) | (k >>> 17), 0x1b873593);
  h ^= k;
  return (Math.imul((h << 13) | (h >>> 19), 5) + 0xe6546b64) | 0;
}

/** murmur3's finish, over `count` parts. */
function finish(h: number, count: number): number {
  h ^= count * 4;
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

/**
 * `0x` + 64 lowercase digits shaped like a Starknet field element: the value stays below
 * 2^251, so it starts `0x00`–`0x07`, as real addresses and hashes do.
 */
export function fieldElementHex(...parts: number[]): string {
  const digits = hexDigits(63, ...parts);
  return `0x0${(parseInt(digits[0] ?? '0', 16) & 7).toString(16)}${digits.slice(1)}`;
}
