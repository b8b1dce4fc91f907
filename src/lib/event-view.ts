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

/** Comparators by column id, shared by the table's sorting and the export. */
export interface ComparableEvent extends FilterableEvent {
  label: string;
  price?: string;
}

const compareText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

export const eventComparators: Record<string, (a: ComparableEvent, b: ComparableEvent) => number> =
  {
    kind: (a, b) => compareText(a.label, b.label),
    token: (a, b) => compareTokenIds(a.tokenId, b.tokenId),
    from: (a, b) => compareText(a.from, b.from),
    to: (a, b) => compareText(a.to, b.to),
    time: (a, b) => a.timestamp - b.timestamp,
    price: (a, b) => compareTokenIds(a.price ?? '', b.price ?? ''),
  };

/**
 * Numeric sort keys where every value fits a double exactly: decimal ids and amounts of up
 * to 15 digits (canonical, so numeric order is the comparator's order). Sorting numbers is
 * faster than comparing decimal strings (about 25 against 40 ms for 50,000 token ids here);
 * time needs no key, its comparator already subtracts numbers.
 */
const numericKeys: Record<string, (events: readonly ComparableEvent[]) => Float64Array | null> = {
  token: (events) => decimalKeys(events, (event) => event.tokenId),
  price: (events) => decimalKeys(events, (event) => event.price),
};

function decimalKeys(
  events: readonly ComparableEvent[],
  value: (event: ComparableEvent) => string | undefined,
): Float64Array | null {
  const keys = new Float64Array(events.length);
  for (let index = 0; index < events.length; index++) {
    const text = value(events[index]!);
    // Missing sorts first, as the empty string does in compareTokenIds.
    if (text === undefined || text === '') keys[index] = -1;
    else if (text.length <= 15) keys[index] = Number(text);
    else return null;
  }
  return keys;
}

/** The rows in the order the table shows them: stable, so ties keep the loaded order. */
export function sortEvents<T extends ComparableEvent>(
  events: readonly T[],
  sort: { id: string; desc: boolean } | null,
): readonly T[] {
  const compare = sort ? eventComparators[sort.id] : undefined;
  if (!sort || !compare) return events;
  const direction = sort.desc ? -1 : 1;
  const keys = numericKeys[sort.id]?.(events);
  if (keys) {
    const order = Array.from(events, (_event, index) => index);
    order.sort((a, b) => direction * (keys[a]! - keys[b]!) || a - b);
    return order.map((index) => events[index]!);
  }
  return [...events].sort((a, b) => direction * compare(a, b));
}
