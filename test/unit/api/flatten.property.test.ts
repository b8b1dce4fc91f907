import type { InfiniteData } from '@tanstack/react-query';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createFlattener, type LoadedList } from '../../../src/api/flatten';
import type { Page } from '../../../src/lib/page';

type Item = { key: string };
const keyOf = (item: Item) => item.key;
const shape = { keyOf };

/** The definition: every page in order, each key once, from scratch. */
function flattenedFromScratch(pages: readonly Page<Item>[]): LoadedList<Item> {
  const seen = new Set<string>();
  const items: Item[] = [];
  for (const page of pages) {
    for (const item of page.items) {
      if (!seen.has(item.key)) items.push(item);
      seen.add(item.key);
    }
  }
  return {
    items,
    skipped: pages.reduce((sum, page) => sum + page.skipped, 0),
    pages: pages.length,
    rewalk: null,
    endUnsure: false,
  };
}

// Few distinct keys, so pages repeat records as an upstream may.
const pages = fc.array(
  fc.record({
    items: fc.array(
      fc.integer({ min: 0, max: 30 }).map((n) => ({ key: `k${n}` })),
      {
        maxLength: 6,
      },
    ),
    skipped: fc.nat(2),
    cursor: fc.constant(null),
  }),
  { maxLength: 4 },
);

/**
 * How a list's pages change between renders: the next pages arrive, the list is
 * refetched (new page objects), or a render sees an older set of pages again.
 */
const step = fc.oneof(
  fc.record({ kind: fc.constant('more' as const), pages }),
  fc.record({ kind: fc.constant('refetch' as const), pages }),
  fc.record({ kind: fc.constant('older' as const), back: fc.nat(3) }),
);

const data = (list: Page<Item>[]): InfiniteData<Page<Item>, unknown> => ({
  pages: list,
  pageParams: list.map(() => null),
});

describe('the page flattener', () => {
  it('answers what flattening from scratch answers, however the pages change', () => {
    fc.assert(
      fc.property(fc.array(step, { maxLength: 12 }), (steps) => {
        const flatten = createFlattener(shape);
        const history: Page<Item>[][] = [[]];
        for (const change of steps) {
          const current = history[history.length - 1]!;
          const next =
            change.kind === 'more'
              ? [...current, ...change.pages]
              : change.kind === 'refetch'
                ? change.pages
                : (history[Math.max(0, history.length - 1 - change.back)] ?? []);
          history.push(next);
          const answer = flatten(data(next));
          const expected = flattenedFromScratch(next);
          expect(answer.items).toHaveLength(expected.items.length);
          answer.items.forEach((item, index) => expect(item).toBe(expected.items[index]));
          expect(answer.skipped).toBe(expected.skipped);
          expect(answer.pages).toBe(expected.pages);
        }
      }),
    );
  });

  it('adds only the new pages: the answer for the same pages is the same list', () => {
    const flatten = createFlattener(shape);
    const first: Page<Item> = { items: [{ key: 'a' }, { key: 'b' }], skipped: 0, cursor: 'c1' };
    const second: Page<Item> = { items: [{ key: 'b' }, { key: 'c' }], skipped: 1, cursor: null };
    const one = data([first]);
    const before = flatten(one);
    expect(flatten(one)).toBe(before);
    const after = flatten(data([first, second]));
    expect(after.items.map(keyOf)).toEqual(['a', 'b', 'c']);
    expect(after.skipped).toBe(1);
    // The earlier answer is left as it was: a render still showing it sees no change.
    expect(before.items.map(keyOf)).toEqual(['a', 'b']);
    expect(flatten(undefined)).toEqual({
      items: [],
      skipped: 0,
      pages: 0,
      rewalk: null,
      endUnsure: false,
    });
  });
});
