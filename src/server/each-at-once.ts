/**
 * Runs `task` on every item, at most `atOnce` at a time, each item once and taken in order
 * as a place frees: `npm run index -- --at-once N` reads contracts so.
 */
export async function eachAtOnce<T>(
  items: readonly T[],
  atOnce: number,
  task: (item: T, index: number) => Promise<void>,
): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      await task(items[index]!, index);
    }
  };
  await Promise.all(Array.from({ length: Math.min(atOnce, items.length) }, worker));
}
