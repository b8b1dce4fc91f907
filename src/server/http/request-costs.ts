// How much one new duration moves a kind's typical time: a few slow answers in a row make
// it costly, and a few quick ones make it light again.
const WEIGHT = 0.25;
// A kind is costly only next to the slowest: when the whole machine is slow, a page of
// rows is still ten times quicker than an export.
const SLOWEST_SHARE = 0.1;
const DEFAULT_MAX_KINDS = 1_000;

/**
 * What a request is, for its typical cost: its path with every segment holding a digit
 * (addresses, token ids, hashed file names) masked, so each route is one kind.
 */
export const requestKind = (path: string) =>
  path
    .split('/')
    .map((segment) => (/\d/.test(segment) ? ':' : segment))
    .join('/');

/**
 * The typical time of each kind of request, learned from the durations measured. A kind
 * is costly when its typical time is at least `costlyMs` and at least a tenth of the
 * slowest kind's: a machine slowed down by other work makes every kind slower, not every
 * kind costly. A kind never seen is light. The map is kept in least-recently-used order
 * and bounded, whatever paths are asked.
 */
export function createRequestCosts(costlyMs: number, maxKinds = DEFAULT_MAX_KINDS) {
  const typical = new Map<string, number>();
  let slowest = 0;
  return {
    costly(kind: string) {
      const ms = typical.get(kind) ?? 0;
      return ms >= costlyMs && ms >= slowest * SLOWEST_SHARE;
    },
    record(kind: string, ms: number) {
      const before = typical.get(kind);
      typical.delete(kind);
      typical.set(kind, before === undefined ? ms : before + (ms - before) * WEIGHT);
      if (typical.size > maxKinds) typical.delete(typical.keys().next().value!);
      slowest = Math.max(...typical.values());
    },
  };
}
