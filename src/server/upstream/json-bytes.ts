/**
 * What the scans of JSON bytes share (the depth check before parsing, the spans of a page's
 * records): the bytes of JSON's structure, and the end of a string. JSON's structure is
 * ASCII, and no byte of a multi-byte UTF-8 character is ASCII, so bytes can be scanned as
 * they are. Strings are jumped over with `indexOf` (they are most of a page), so brackets
 * and commas inside them do not count.
 */
export const QUOTE = 0x22;
export const BACKSLASH = 0x5c;
export const COLON = 0x3a;
export const COMMA = 0x2c;
export const OPEN_OBJECT = 0x7b;
export const CLOSE_OBJECT = 0x7d;
export const OPEN_ARRAY = 0x5b;
export const CLOSE_ARRAY = 0x5d;

/** The index of the quote closing the string opened at `open`, or -1 when none does. */
export function closingQuote(body: Uint8Array, open: number): number {
  let at = open;
  for (;;) {
    at = body.indexOf(QUOTE, at + 1);
    if (at < 0) return -1;
    let backslashes = 0;
    while (body[at - 1 - backslashes] === BACKSLASH) backslashes += 1;
    // An odd run of backslashes escapes this quote; an even one escapes itself.
    if (backslashes % 2 === 0) return at;
  }
}
