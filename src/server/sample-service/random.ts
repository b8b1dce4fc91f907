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
  let h = 0x9747b28c;
  for (const part of parts) {
    let k = Math.imul(part >>> 0, 0xcc9e2d51);
    k = Math.imul((k << 15) | (k >>> 17), 0x1b873593);
    h ^= k;
    h = (Math.imul((h << 13) | (h >>> 19), 5) + 0xe6546b64) | 0;
  }
  h ^= parts.length * 4;
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

/** `count` hex digits, 8 per 32-bit word. */
export function hexDigits(count: number, ...parts: number[]): string {
  let text = '';
  for (let word = 0; text.length < count; word += 1) {
    text += hash32(...parts, word)
      .toString(16)
      .padStart(8, '0');
  }
  return text.slice(0, count);
}

/**
 * `0x` + 64 lowercase digits shaped like a Starknet field element: the value stays below
 * 2^251, so it starts `0x00`–`0x07`, as real addresses and hashes do.
 */
export function fieldElementHex(...parts: number[]): string {
  const digits = hexDigits(63, ...parts);
  return `0x0${(parseInt(digits[0] ?? '0', 16) & 7).toString(16)}${digits.slice(1)}`;
}
