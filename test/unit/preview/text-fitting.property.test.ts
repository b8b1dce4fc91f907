import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { charWidth, fitted, type CharWidth } from '../../../src/server/preview/image-svg';
import { clipName, collectionLayout, MAX_NAME_LENGTH } from '../../../src/server/preview/layout';
import { plainFit } from '../../support/plain-fit';

/**
 * Fitting a line of a card: the same answer as the plain way (measure the whole line,
 * drop a character, measure again), at a cost that does not grow with the text's square.
 */

const counting = () => {
  let calls = 0;
  const measure: CharWidth = (char, em) => {
    calls++;
    return charWidth(char, em);
  };
  return { measure, calls: () => calls };
};

describe('fitting text to a width', () => {
  it('gives the plain way’s answer', () => {
    const char = fc.constantFrom('a', 'W', 'i', ' ', '\t', '.', '7', '…', '漢', '😀', 'é');
    fc.assert(
      fc.property(
        fc.array(char, { maxLength: 300 }).map((chars) => chars.join('')),
        fc.integer({ min: 100, max: 1200 }),
        fc.integer({ min: 12, max: 40 }),
        fc.integer({ min: 0, max: 30 }),
        (text, width, min, extra) => {
          expect(fitted(text, width, min + extra, min, 0.6)).toEqual(
            plainFit(text, width, min + extra, min, 0.6),
          );
        },
      ),
    );
  });

  it('measures each character at most once, and no more than a line’s worth', () => {
    const callsFor = (length: number) => {
      const { measure, calls } = counting();
      fitted('a'.repeat(length), 848, 64, 40, 0.62, measure);
      return calls();
    };
    const lengths = [100, 1_000, 2_000, 5_000, 10_000, 100_000];
    const calls = lengths.map(callsFor);
    expect(calls[0]).toBeGreaterThan(0);
    lengths.forEach((length, index) => expect(calls[index]).toBeLessThanOrEqual(length + 1));
    // A line's worth at the smallest size: the same for every length past it.
    expect(new Set(calls.slice(1)).size).toBe(1);
  });
});

describe('a collection’s name', () => {
  it('is cut to a sane length before it is laid out', () => {
    const long = 'N'.repeat(10_000);
    expect(clipName(long)).toHaveLength(MAX_NAME_LENGTH);
    expect(clipName(long).endsWith('…')).toBe(true);
    expect(clipName('short')).toBe('short');
    expect([...clipName('😀'.repeat(MAX_NAME_LENGTH))]).toHaveLength(MAX_NAME_LENGTH);
    const layout = collectionLayout({ address: '0x1', name: long, symbol: long }, null);
    expect(layout.title).toBe(clipName(long));
    expect(layout.subtitle.length).toBeLessThan(MAX_NAME_LENGTH + 40);
  });
});
