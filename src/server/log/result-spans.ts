import {
  CLOSE_ARRAY,
  CLOSE_OBJECT,
  closingQuote,
  COLON,
  COMMA,
  OPEN_ARRAY,
  OPEN_OBJECT,
  QUOTE,
} from '../upstream/json-bytes';

/**
 * Where each record of a page lies in the page's bytes: the spans of the elements of the
 * top-level object's `result` array, for a body that `JSON.parse` has already accepted.
 * The store keeps each record as the exact bytes the service sent, cut out of the page,
 * instead of serialising every parsed record again: a page holds some 1,500.
 *
 * One pass over the bytes, strings jumped over (see json-bytes.ts).
 */
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

function trimEnd(body: Uint8Array, start: number, end: number): number {
  let last = end;
  while (last > start && isSpace(body[last - 1] as number)) last -= 1;
  return last;
}
