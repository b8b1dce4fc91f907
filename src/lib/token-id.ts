import { fail, ok, type Parsed } from './result';

/**
 * Token ids are unsigned integers of up to 256 bits, written in decimal (`"856292"`) or
 * hex (`"0x0d10e4"`). They never fit a JS number, so they are always bigint or string.
 */
export const MAX_TOKEN_ID = (1n << 256n) - 1n;
const TOKEN_ID_HEX_DIGITS = 64;

const DECIMAL = /^[0-9]{1,80}$/;
// Leading zeros are harmless, so a few more digits than 64 are accepted; the value is checked below.
const HEX = /^0x[0-9a-f]{1,80}$/i;

const TOO_LARGE =
  'This token id is too large: token ids are below 2^256, at most 78 decimal digits (64 hexadecimal).';

export function parseTokenId(input: string): Parsed<bigint> {
  const text = input.trim();
  if (text === '') return fail('Enter a token id.');
  // Length is checked by the patterns before BigInt sees the text, so no input is costly.
  if (!DECIMAL.test(text) && !HEX.test(text)) {
    // Digits beyond what the patterns take are a number, only too large for a token id.
    return fail(
      /^(?:[0-9]+|0x[0-9a-f]+)$/i.test(text)
        ? TOO_LARGE
        : 'A token id is a decimal number or 0x followed by hexadecimal digits.',
    );
  }
  const value = BigInt(text);
  if (value > MAX_TOKEN_ID) return fail(TOO_LARGE);
  return ok(value);
}

export function tokenIdToDecimal(id: bigint): string {
  return id.toString(10);
}

/** The service's `token_id_hex` spelling: `0x` + 64 lowercase digits. */
export function tokenIdToHex(id: bigint): string {
  return `0x${id.toString(16).padStart(TOKEN_ID_HEX_DIGITS, '0')}`;
}

/** Canonical decimal form of a decimal or hex token id, or null when it is not one. */
export function canonicalTokenId(input: string): string | null {
  const parsed = parseTokenId(input);
  return parsed.ok ? tokenIdToDecimal(parsed.value) : null;
}
