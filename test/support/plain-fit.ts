import { charWidth } from '../../src/server/preview/image-svg';

/**
 * Fitting a card's line the plain way, as it was first written: shrink the size, then
 * drop one character at a time and measure the whole line again. The reference the
 * fitting is checked against (tests) and timed beside (bench `preview`).
 */
export function plainFit(text: string, width: number, max: number, min: number, em: number) {
  const clean = text.replace(/\s+/g, ' ').trim();
  const units = (line: string) => [...line].reduce((sum, char) => sum + charWidth(char, em), 0);
  const size = Math.max(min, Math.min(max, Math.floor(width / Math.max(units(clean), 0.01))));
  if (units(clean) * size <= width) return { text: clean, size };
  const chars = [...clean];
  while (chars.length > 1 && units(`${chars.join('')}…`) * min > width) chars.pop();
  return { text: `${chars.join('').trimEnd()}…`, size: min };
}
