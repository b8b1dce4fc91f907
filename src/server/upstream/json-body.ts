import {
  CLOSE_ARRAY,
  CLOSE_OBJECT,
  closingQuote,
  OPEN_ARRAY,
  OPEN_OBJECT,
  QUOTE,
} from './json-bytes';

/**
 * Nesting no real page comes near: a page is an object holding a list of flat records
 * (depth 3); records of other deployments may hold a few objects more.
 */
export const MAX_JSON_DEPTH = 32;

// Throws on bytes that are not UTF-8 instead of replacing them.
const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * An upstream body parsed as JSON, refusing first what `JSON.parse` must not be given:
 * bytes that are not UTF-8 (a lenient decoder would replace them, and the page would be
 * passed on and cached as something the service never sent), and nesting deeper than
 * `maxDepth` (two million levels in 4 MB keep `JSON.parse` busy for most of a second,
 * and every other request waits). Throws on either, as `JSON.parse` does on malformed JSON.
 */
export function parseJsonBody(body: Uint8Array, maxDepth = MAX_JSON_DEPTH): unknown {
  const text = strictUtf8.decode(body);
  if (nestedDeeperThan(body, maxDepth)) {
    throw new SyntaxError(`JSON nested deeper than ${maxDepth} levels`);
  }
  return JSON.parse(text) as unknown;
}

/**
 * Whether JSON bytes open more than `maxDepth` arrays or objects inside one another. One
 * pass that jumps over strings (see json-bytes.ts). Malformed JSON is not judged:
 * `JSON.parse` refuses it after.
 */
export function nestedDeeperThan(body: Uint8Array, maxDepth: number): boolean {
  let depth = 0;
  for (let i = 0; i < body.length; i += 1) {
    const code = body[i];
    if (code === QUOTE) {
      i = closingQuote(body, i);
      if (i < 0) return false;
    } else if (code === OPEN_OBJECT || code === OPEN_ARRAY) {
      depth += 1;
      if (depth > maxDepth) return true;
    } else if (code === CLOSE_OBJECT || code === CLOSE_ARRAY) {
      depth -= 1;
    }
  }
  return false;
}
