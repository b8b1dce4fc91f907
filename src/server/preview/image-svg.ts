import { escapeMarkup as xml } from './escape-markup';
import type { PreviewLayout } from './layout';

/**
 * The preview card as SVG, 1200×630 (the size chat apps show large), light: the
 * placeholder pattern, the title and its line, and up to six figures in a grid.
 *
 * The collection's own image is not drawn: it lives on hosts the upstream names, and
 * fetching an address a stranger controls from the server would let them aim it
 * anywhere (SSRF). A pattern drawn from the address stands in for it.
 */
export const WIDTH = 1200;
export const HEIGHT = 630;
export const FONT_FAMILY = 'Inter';

const MARGIN = 72;
const ICON = 168;
const TEXT_X = MARGIN + ICON + 40;
const INK = '#14161a';
const MUTED = '#5b6170';
const RULE = '#e3e6eb';
const COLUMNS = 3;
const COLUMN_WIDTH = (WIDTH - 2 * MARGIN) / COLUMNS;

export function previewSvg(layout: PreviewLayout): string {
  const hue = hueOf(layout.seed);
  const accent = `hsl(${hue}, 62%, 46%)`;
  const title = fitted(layout.title, WIDTH - MARGIN - TEXT_X, 64, 40, 0.62);
  const subtitle = fitted(layout.subtitle, WIDTH - MARGIN - TEXT_X, 30, 30, 0.56);
  // One size for a row's values, the largest at which all of them fit: a row of mixed
  // sizes looks ragged.
  const fit = (text: string, size: number) => fitted(text, COLUMN_WIDTH - 28, size, 28, 0.62);
  const rowSize = (row: number) =>
    Math.min(
      ...layout.figures.slice(row * COLUMNS, (row + 1) * COLUMNS).map((f) => fit(f.value, 46).size),
    );
  const figures = layout.figures.map((figure, index) => {
    const row = Math.floor(index / COLUMNS);
    const x = MARGIN + (index % COLUMNS) * COLUMN_WIDTH;
    const y = 340 + row * 116;
    const value = fit(figure.value, rowSize(row));
    return (
      `<text x="${x}" y="${y}" font-size="24" fill="${MUTED}">${xml(figure.label)}</text>` +
      `<text x="${x}" y="${y + 52}" font-size="${value.size}" font-weight="700" fill="${INK}">${xml(value.text)}</text>`
    );
  });
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${HEIGHT}" viewBox="0 0 ${WIDTH} ${HEIGHT}" font-family="${FONT_FAMILY}">`,
    `<rect width="${WIDTH}" height="${HEIGHT}" fill="#ffffff"/>`,
    `<rect width="${WIDTH}" height="12" fill="${accent}"/>`,
    identicon(layout.seed, hue, MARGIN, MARGIN),
    `<text x="${TEXT_X}" y="${MARGIN + 84}" font-size="${title.size}" font-weight="700" fill="${INK}">${xml(title.text)}</text>`,
    `<text x="${TEXT_X}" y="${MARGIN + 136}" font-size="${subtitle.size}" fill="${MUTED}">${xml(subtitle.text)}</text>`,
    `<rect x="${MARGIN}" y="${MARGIN + ICON + 36}" width="${WIDTH - 2 * MARGIN}" height="2" fill="${RULE}"/>`,
    ...figures,
    `<text x="${MARGIN}" y="${HEIGHT - 44}" font-size="26" font-weight="700" fill="${INK}">Token activity</text>`,
    `<text x="${MARGIN + 196}" y="${HEIGHT - 44}" font-size="26" fill="${MUTED}">on Starknet</text>`,
    `</svg>`,
  ].join('');
}

/**
 * A 5×5 pattern mirrored left to right, like a GitHub identicon: the same address always
 * draws the same picture, and different addresses rarely look alike.
 */
function identicon(seed: string, hue: number, x: number, y: number): string {
  const digits = seed.replace(/^0x/, '').replace(/^0+/, '').padStart(16, '0');
  const cell = ICON / 6;
  const inset = cell / 2;
  const cells: string[] = [];
  for (let row = 0; row < 5; row++) {
    for (let column = 0; column < 3; column++) {
      const digit = parseInt(digits[digits.length - 1 - (row * 3 + column)] ?? '0', 16);
      if (digit % 2 === 1) continue;
      for (const c of column === 2 ? [2] : [column, 4 - column]) {
        cells.push(
          `<rect x="${x + inset + c * cell}" y="${y + inset + row * cell}" width="${cell}" height="${cell}"/>`,
        );
      }
    }
  }
  return (
    `<rect x="${x}" y="${y}" width="${ICON}" height="${ICON}" rx="28" fill="hsl(${hue}, 70%, 94%)"/>` +
    `<g fill="hsl(${hue}, 62%, 46%)">${cells.join('')}</g>`
  );
}

/** A hue from the address's digits, so each address has its colour. */
function hueOf(seed: string): number {
  let hash = 0;
  for (const char of seed) hash = (hash * 31 + char.charCodeAt(0)) >>> 0;
  return hash % 360;
}

/** A character's advance in ems, generously, by class (`em`: the font's average). */
export type CharWidth = (char: string, em: number) => number;

// The narrowest class's advance: no character is estimated narrower.
const NARROWEST_EM = 0.34;
const NARROW = new Set(' .,:;|!iIl1\'"()[]');
const WIDE = /[A-Z0-9#@%&MW]/;

export const charWidth: CharWidth = (char, em) => {
  if (NARROW.has(char)) return NARROWEST_EM;
  if (WIDE.test(char)) return 0.7;
  if (char.charCodeAt(0) > 0x2e7f) return 1;
  return em;
};

/**
 * The text at the largest size from `max` down to `min` at which it fits `width`, cut
 * with an ellipsis when it does not fit even at `min`. Widths are estimated from
 * character classes (`charWidth`), generously, so text never runs off the card.
 *
 * Each character is measured once: running widths are summed as it goes, and the cut is
 * a binary search over them. Only the characters that could fit at `min` are measured at
 * all, so a name of any length costs the same as a line's worth.
 */
export function fitted(
  text: string,
  width: number,
  max: number,
  min: number,
  em: number,
  measure: CharWidth = charWidth,
) {
  const room = Math.ceil(width / (min * NARROWEST_EM)) + 1;
  const clean = text.replace(/\s+/g, ' ').trim();
  // A character is one or two code units: this start holds `room` characters if the text does.
  const start = [...clean.slice(0, 2 * room)];
  const chars = start.slice(0, room);
  const whole = chars.length === start.length && clean.length <= 2 * room;
  const running = [0];
  for (const char of chars) running.push(running[running.length - 1]! + measure(char, em));
  const units = running[chars.length]!;
  if (whole) {
    const size = Math.max(min, Math.min(max, Math.floor(width / Math.max(units, 0.01))));
    if (units * size <= width) return { text: clean, size };
  }
  // The longest start (one character at least) that fits at `min` with the ellipsis.
  const ellipsis = measure('…', em);
  let low = 1;
  let high = chars.length;
  while (low < high) {
    const middle = Math.ceil((low + high) / 2);
    if ((running[middle]! + ellipsis) * min <= width) low = middle;
    else high = middle - 1;
  }
  return { text: `${chars.slice(0, low).join('').trimEnd()}…`, size: min };
}
