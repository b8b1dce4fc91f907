/** Whether `items` begins with exactly the elements of `prefix` (the same objects, in order). */
function startsWith<T>(items: readonly T[], prefix: readonly T[]): boolean {
  if (prefix.length > items.length) return false;
  for (let index = 0; index < prefix.length; index++) {
    if (items[index] !== prefix[index]) return false;
  }
  return true;
}

/** `items` in the order of `compare`, or its reverse when `desc`; ties keep their order. */
export function sortedBy<T>(
  items: readonly T[],
  compare: (a: T, b: T) => number,
  desc: boolean,
): T[] {
  const direction = desc ? -1 : 1;
  return [...items].sort((a, b) => direction * compare(a, b));
}

/** How a fold over a growing list starts, goes on from an earlier answer, and takes an item. */
export interface GrowingFold<T, S> {
  /** The state before any item. */
  start(): S;
  /**
   * A state to add to, made from the answer for a shorter list: the same object when that
   * answer is not needed any more (only the last is kept), a copy when it may still be
   * asked for.
   */
  resume(earlier: S): S;
  /** Takes one item, at `index` of the list. */
  add(state: S, item: T, index: number): void;
}

/**
 * A fold over a list that grows at its end, as a list grows while its pages load: when the
 * list begins with exactly the items of one it was given before (the same objects, in
 * order), only the new items are folded into that answer; any other list is folded from
 * the start. The last `keep` answers are kept, and the same list gets the same answer.
 */
export function createGrowingFold<T, S>(
  fold: GrowingFold<T, S>,
  keep = 1,
): (items: readonly T[]) => S {
  let kept: { items: readonly T[]; state: S }[] = [];
  return (items) => {
    const known = kept.find((entry) => entry.items === items);
    if (known) return known.state;
    const base = kept.find((entry) => startsWith(items, entry.items));
    const state = base ? fold.resume(base.state) : fold.start();
    for (let index = base?.items.length ?? 0; index < items.length; index++) {
      fold.add(state, items[index]!, index);
    }
    kept = [{ items, state }, ...kept.slice(0, keep - 1)];
    return state;
  };
}
