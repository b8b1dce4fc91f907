/**
 * Nesting no real page comes near: a page is an object holding a list of flat records
 * (depth 3); records of other deployments may hold a few objects more.
 */
export const MAX_JSON_DEPTH = 32;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_OBJECT = 0x7b;
const OPEN_ARRAY = 0x5b;
const CLOSE_OBJECT = 0x7d;
const CLOSE_ARRAY = 0x5d;

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
  if (nestedDeeperThan(text, maxDepth)) {
    throw new SyntaxError(`JSON nested deeper than ${maxDepth} levels`);
  }
  return JSON.parse(text) as unknown;
}

/**
 * Whether JSON text opens more than `maxDepth` arrays or objects inside one another.
 * One pass that jumps over strings (most of a page) with `indexOf`, so brackets inside
 * strings do not count. Malformed text is not judged: `JSON.parse` refuses it after.
 */
export function nestedDeeperThan(text: string, maxDepth: number): boolean {
  let depth = 0;
  for (let i = 0; i < text.length; i += 1) {
    const code = text.charCodeAt(i);
    if (code === QUOTE) {
      i = closingQuote(text, i);
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

/** The index of the quote closing the string opened at `open`, or -1 when none does. */
function closingQuote(text: string, open: number): number {
  let at = open;
  for (;;) {
    at = text.indexOf('"', at + 1);
    if (at < 0) return -1;
    let backslashes = 0;
    while (text.charCodeAt(at - 1 - backslashes) === BACKSLASH) backslashes += 1;
    // An odd run of backslashes escapes this quote; an even one escapes itself.
    if (backslashes % 2 === 0) return at;
  }
}
