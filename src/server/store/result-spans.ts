/**
 * Where each record of a page lies in the page's bytes: the spans of the elements of the
 * top-level object's `result` array, for a body that `JSON.parse` has already accepted.
 * The store keeps each record as the exact bytes the service sent, cut out of the page,
 * instead of serialising every parsed record again: a page holds some 1,500.
 *
 * One pass over the bytes; strings are jumped over with `indexOf` (they are most of a
 * page), so brackets and commas inside them do not count. JSON's structure is ASCII, and
 * no byte of a multi-byte UTF-8 character is ASCII, so bytes can be scanned as they are.
 */
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COLON = 0x3a;
const COMMA = 0x2c;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const RESULT = Buffer.from('"result"');

const isSpace = (byte: number) => byte === 0x20 || byte === 0x0a || byte === 0x0d || byte === 0x09;

/** Spans `[start, end)` of the `result` array's elements; [] without one; null if not found. */
export function resultSpans(body: Uint8Array): Array<[number, number]> | null {
  let depth = 0;
  // At depth 1: whether the next string is a key, and whether the last key was "result".
  let keyNext = false;
  let inResult = false;
  const spans: Array<[number, number]> = [];
  let elementStart = -1;
  for (let at = 0; at < body.length; at++) {
    const byte = body[at] as number;
    if (byte === QUOTE) {
      const end = closingQuote(body, at);
      if (end < 0) return null;
      if (depth === 1 && keyNext) {
        inResult = end - at + 1 === RESULT.length && RESULT.equals(body.subarray(at, end + 1));
        keyNext = false;
      }
      if (depth === 2 && inResult && elementStart < 0) elementStart = at;
      at = end;
    } else if (byte === OPEN_OBJECT || byte === OPEN_ARRAY) {
      if (depth === 2 && inResult && elementStart < 0) elementStart = at;
      depth += 1;
      if (depth === 1) keyNext = byte === OPEN_OBJECT;
    } else if (byte === CLOSE_OBJECT || byte === CLOSE_ARRAY) {
      if (depth === 2 && inResult) {
        // The end of the result array: its last element, if any, ends here.
        if (elementStart >= 0) spans.push([elementStart, trimEnd(body, elementStart, at)]);
        return spans;
      }
      depth -= 1;
    } else if (byte === COMMA) {
      if (depth === 1) keyNext = true;
      else if (depth === 2 && inResult && elementStart >= 0) {
        spans.push([elementStart, trimEnd(body, elementStart, at)]);
        elementStart = -1;
      }
    } else if (byte === COLON || isSpace(byte)) {
      continue;
    } else if (depth === 2 && inResult && elementStart < 0) {
      // A number, true, false or null as an element.
      elementStart = at;
    } else if (depth === 1 && inResult && byte === 0x6e) {
      // "result": null
      return [];
    }
  }
  return inResult ? null : [];
}

/** The index of the quote closing the string opened at `open`, or -1. */
function closingQuote(body: Uint8Array, open: number): number {
  let at = open;
  for (;;) {
    at = body.indexOf(QUOTE, at + 1);
    if (at < 0) return -1;
    let backslashes = 0;
    while (body[at - 1 - backslashes] === BACKSLASH) backslashes += 1;
    if (backslashes % 2 === 0) return at;
  }
}

function trimEnd(body: Uint8Array, start: number, end: number): number {
  let last = end;
  while (last > start && isSpace(body[last - 1] as number)) last -= 1;
  return last;
}
