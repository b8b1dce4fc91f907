import type { z } from 'zod';
import { describe, expect, it } from 'vitest';
import {
  eventsParams,
  exportParams,
  problemOf,
  rankingParams,
  seriesParams,
} from '../../../src/server/api/params';

/**
 * The query API's free-text parameters refuse control characters with a 400 saying what
 * they accept: a NUL went on to PostgreSQL, which refuses it in text, and the answer was a
 * 500 (`GET /api/collections/0x…/events?marketplace=%00`). The schemas are what each
 * route parses its query with; `problemOf` is the message of its 400.
 */
const problem = (schema: z.ZodType, query: Record<string, string>) => {
  const result = schema.safeParse(query);
  return result.success ? null : problemOf(result.error);
};

const CONTROLS = ['\u0000', 'Ele\u0000ment', '\u0001', '\u001f', 'Element\n', '\u007f', '\u0085'];

describe('free-text query parameters', () => {
  it.each([
    ['events', eventsParams],
    ['export', exportParams],
    ['series', seriesParams],
  ] as const)('%s: refuse a marketplace with a control character', (_, schema) => {
    for (const marketplace of CONTROLS) {
      expect(problem(schema, { marketplace }), JSON.stringify(marketplace)).toBe(
        "marketplace must be at most 100 characters, no control characters: a marketplace's name.",
      );
    }
  });

  it('refuse a ranking search with a control character', () => {
    for (const q of CONTROLS) {
      expect(problem(rankingParams, { q }), JSON.stringify(q)).toBe(
        'q must be at most 200 characters, no control characters: part of a name, a symbol or an address.',
      );
    }
  });

  it('take any other text', () => {
    for (const marketplace of ['Element', 'Pyramid Market', 'Ünïcode 市場 🎨']) {
      expect(eventsParams.parse({ marketplace }).marketplace).toBe(marketplace);
    }
    expect(rankingParams.parse({ q: '  Loot Survivor ' }).q).toBe('Loot Survivor');
    expect(rankingParams.parse({ q: '' }).q).toBeUndefined();
    expect(problem(eventsParams, { marketplace: '' })).toBe(
      "marketplace must be a marketplace's name, not empty.",
    );
  });
});
