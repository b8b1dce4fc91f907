import { ADDRESS_HEX_DIGITS, parseAddress } from './address';
import { fail, ok, type Parsed } from './result';

/**
 * Addresses as people type them: the app's own short form ("0x6058…44b8", also with
 * "..."), the first digits ("0x6058", leading zeros or not), or the whole address. A short
 * form names an address only among ones already known (the loaded contracts or events):
 * padding "0x6058" with zeros makes another address, which holds nothing.
 */

/** Digits without `0x` and leading zeros: how short forms and prefixes are compared. */
const significant = (address: string) => address.slice(2).replace(/^0+/, '');

const SHORT_FORM = /^0x([0-9a-f]*)(?:…|\.\.\.)([0-9a-f]+)$/i;
const HEX_PREFIX = /^0x[0-9a-f]+$/i;

/**
 * A test of canonical addresses against typed text, or null when the text is not hex: a
 * short form matches its two ends, `0x` and digits match as the address's beginning
 * (leading zeros or not) or anywhere in it.
 */
export function addressMatcher(text: string): ((address: string) => boolean) | null {
  const needle = text.trim().toLowerCase();
  const short = SHORT_FORM.exec(needle);
  if (short) {
    const [, head = '', tail = ''] = short;
    const start = head.replace(/^0+/, '');
    return (address) => {
      const digits = significant(address);
      return (
        digits.length >= start.length + tail.length &&
        digits.startsWith(start) &&
        digits.endsWith(tail)
      );
    };
  }
  if (HEX_PREFIX.test(needle)) {
    const start = needle.slice(2).replace(/^0+/, '');
    return (address) => significant(address).startsWith(start) || address.includes(needle);
  }
  return null;
}

/** Whether typed text is an address short of all its digits: it needs a known address to name one. */
export function isPartialAddress(text: string): boolean {
  const needle = text.trim();
  if (SHORT_FORM.test(needle)) return true;
  return HEX_PREFIX.test(needle) && significant(needle).length < ADDRESS_HEX_DIGITS - 4;
}

/**
 * The address a person means by `input`, among the addresses `known` (those of the
 * loaded events): a whole address as it is, a short form or first digits when exactly
 * one known address has them; otherwise a message saying why not.
 */
export function resolveAddress(input: string, known: Iterable<string>): Parsed<string> {
  const text = input.trim();
  const whole = parseAddress(text);
  const matcher = addressMatcher(text);
  if (!matcher) return whole;
  const candidates = new Set(known);
  if (whole.ok && (candidates.has(whole.value) || !isPartialAddress(text))) return whole;
  const matches = [...candidates].filter(matcher);
  if (matches.length === 1) return ok(matches[0]!);
  if (matches.length > 1) {
    return fail(
      `${text} fits ${matches.length} addresses of the loaded events: type more of it, or paste the whole address.`,
    );
  }
  return fail(
    `No loaded event has an address like ${text}. Paste the whole address to filter by it.`,
  );
}
