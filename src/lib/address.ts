import { fail, ok, type Parsed } from './result';

/**
 * Starknet addresses (and hashes) are field elements written as `0x` + 64 hex digits.
 * People paste short forms (`0x49d3…` without leading zeros) and upper case, so every
 * address is normalised to one canonical spelling before it goes into a URL or a request.
 */
export const ADDRESS_HEX_DIGITS = 64;
export const ZERO_ADDRESS = `0x${'0'.repeat(ADDRESS_HEX_DIGITS)}`;

const ADDRESS_PATTERN = /^0x[0-9a-f]{1,64}$/i;

export function parseAddress(input: string): Parsed<string> {
  const text = input.trim();
  if (text === '') return fail('Enter a contract address.');
  if (text.length > 2 + ADDRESS_HEX_DIGITS + 1 || !ADDRESS_PATTERN.test(text)) {
    return fail('An address is 0x followed by up to 64 hexadecimal digits.');
  }
  return ok(`0x${text.slice(2).toLowerCase().padStart(ADDRESS_HEX_DIGITS, '0')}`);
}

const HEX_DIGIT = new Uint8Array(128);
for (const digit of '0123456789abcdef') HEX_DIGIT[digit.charCodeAt(0)] = 1;

/**
 * Whether `value` is already canonical (`0x` + 64 lowercase hex digits). A loop over a
 * table: it runs for every address of every record loaded (about five a record), where
 * it measured about twice as fast as the equivalent regular expression.
 */
export function isCanonicalAddress(value: string): boolean {
  if (value.length !== 2 + ADDRESS_HEX_DIGITS) return false;
  if (value.charCodeAt(0) !== 48 || value.charCodeAt(1) !== 120) return false;
  for (let index = 2; index < value.length; index += 1) {
    const code = value.charCodeAt(index);
    if (code > 127 || HEX_DIGIT[code] === 0) return false;
  }
  return true;
}

/** The canonical form of an address, or null when the input is not one. */
export function canonicalAddress(input: string): string | null {
  const parsed = parseAddress(input);
  return parsed.ok ? parsed.value : null;
}

/** True for `0x0`, `0x000…0` in any length: the sender of a mint, the receiver of a burn. */
export function isZeroAddress(address: string | undefined | null): boolean {
  if (address === ZERO_ADDRESS) return true;
  return typeof address === 'string' && /^0x0*$/i.test(address.trim()) && address.trim().length > 2;
}

/** `0x0123…cdef`: enough of both ends to tell addresses apart at a glance. */
export function shortenHex(value: string, keep = 4): string {
  if (!value.startsWith('0x')) return value;
  const digits = value.slice(2).replace(/^0+(?=.)/, '');
  if (digits.length <= keep * 2 + 1) return `0x${digits}`;
  return `0x${digits.slice(0, keep)}…${digits.slice(-keep)}`;
}
