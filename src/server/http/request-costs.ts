// How much one new duration moves a kind's typical time: a few slow answers in a row make
// it costly, and a few quick ones make it light again.
const WEIGHT = 0.25;
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
 * The typical time of each kind of request, learned from the durations measured: a kind
 * becomes costly once its typical time reaches `costlyMs`, and light again only below
 * half of it, so a kind near the line does not flip with every answer. A kind never seen
 * is light. The map is kept in least-recently-used order and bounded, whatever paths are
 * asked.
 */
export function createRequestCosts(costlyMs: number, maxKinds = DEFAULT_MAX_KINDS) {
  const kinds = new Map<string, { typicalMs: number; costly: boolean }>();
  return {
    costly: (kind: string) => kinds.get(kind)?.costly ?? false,
    record(kind: string, ms: number) {
      const before = kinds.get(kind);
      const typicalMs = before ? before.typicalMs + (ms - before.typicalMs) * WEIGHT : ms;
      const costly = before?.costly ? typicalMs >= costlyMs / 2 : typicalMs >= costlyMs;
      kinds.delete(kind);
      kinds.set(kind, { typicalMs, costly });
      if (kinds.size > maxKinds) kinds.delete(kinds.keys().next().value!);
    },
  };
}
