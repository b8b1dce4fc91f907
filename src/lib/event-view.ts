import type { EventKindFilter } from './view-state';

/**
 * Filtering and ordering of loaded events, as pure functions over a minimal shape so
 * they can be tested (and benchmarked) without React.
 */
export interface FilterableEvent {
  kind: EventKindFilter;
  from: string;
  to: string;
  timestamp: number;
  tokenId: string;
}

export function filterEvents<T extends FilterableEvent>(
  events: readonly T[],
  kinds: readonly EventKindFilter[],
  address: string | null,
): readonly T[] {
  if (kinds.length === 0 && address === null) return events;
  const kindSet = new Set(kinds);
  return events.filter(
    (event) =>
      (kindSet.size === 0 || kindSet.has(event.kind)) &&
      (address === null || event.from === address || event.to === address),
  );
}

/** Token ids are decimal strings of any length: shorter means smaller. */
export function compareTokenIds(a: string, b: string): number {
  return a.length - b.length || (a < b ? -1 : a > b ? 1 : 0);
}

/** Oldest first; ties keep their loaded order (Array.prototype.sort is stable). */
export function sortByTime<T extends { timestamp: number }>(events: readonly T[]): T[] {
  return [...events].sort((a, b) => a.timestamp - b.timestamp);
}
