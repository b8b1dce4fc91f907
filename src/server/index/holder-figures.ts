import type { HoldersFigures } from '../../lib/answers';

/**
 * The holders' figures as the database works them out: how many hold, the tokens they
 * hold, and how many fall in each range of the distribution (`r0`…), read now from
 * `idx_owners` and stored with each kept moment (`holder-moments.ts`). A kept moment's
 * figures are counted with these ranges: a change of ranges must drop the kept moments.
 */
export const RANGES: readonly (readonly [string, number, number])[] = [
  ['1', 1, 1],
  ['2–5', 2, 5],
  ['6–10', 6, 10],
  ['11–25', 11, 25],
  ['26+', 26, Number.MAX_SAFE_INTEGER],
];

/** `count(*) FILTER (WHERE column BETWEEN low AND high)` for each range, named r0…. */
export const rangeCounts = (column: string, name = (index: number) => `r${index}`) =>
  RANGES.map(
    ([, low, high], index) =>
      `count(*) FILTER (WHERE ${column} BETWEEN ${low} AND ${high}) AS ${name(index)}`,
  ).join(', ');

/** The answer's figures from a row of holders, held, top10 and r0…, and the burns. */
export function figuresFromRow(f: Record<string, unknown>, burned: number): HoldersFigures {
  const held = Number(f.held);
  return {
    totalHolders: Number(f.holders),
    tokensHeld: held,
    knownBurned: burned,
    distribution: RANGES.map(([range], index) => ({ range, holders: Number(f[`r${index}`]) })),
    top10Share: held > 0 ? Number(f.top10) / held : 0,
  };
}
