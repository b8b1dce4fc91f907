import { expect } from 'vitest';
import type { RealisedResult } from '../../src/lib/answers';

/**
 * An answer's realised results by currency address, amounts as bigints, to compare with
 * the same figures worked out from raw records; each result checked to be its proceeds
 * less its cost.
 */
export const resultsByCurrency = (results: readonly RealisedResult[]) =>
  new Map(
    results.map((r) => {
      expect(BigInt(r.result)).toBe(BigInt(r.proceeds) - BigInt(r.cost));
      return [
        r.currency.address,
        {
          tokens: r.tokens,
          cost: BigInt(r.cost),
          proceeds: BigInt(r.proceeds),
          flips: r.flips,
          assumed: r.assumed,
        },
      ];
    }),
  );
