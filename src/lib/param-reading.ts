import { canonicalAddress } from './address';
import { EVENT_KINDS, type EventKind } from './token-event';
import {
  parseSort,
  parseTimeDisplay,
  searchText,
  type SortState,
  type TimeDisplay,
} from './view-state';

/**
 * A link's search as a page reads it: each value it can take, in canonical form, and
 * for each value it cannot, why, in words the page shows beside its controls (`LeftOut`).
 * Every page with URL parameters reads them so, and a URL whose search differs from the
 * canonical one is replaced by it.
 */
export interface SearchReading {
  /** The canonical search: known keys, canonical values, defaults left out, key order. */
  search: string;
  /** Why values of the link were left out of the view. */
  reasons: string[];
}

/** One parameter read: the value taken (null: none) and, when the link's was left out, why. */
export interface Reading<T> {
  value: T;
  reason: string | null;
}

export const taken = <T>(value: T): Reading<T> => ({ value, reason: null });
export const refused = <T>(value: T, reason: string): Reading<T> => ({ value, reason });

const QUOTED_MAX = 40;

/** `“sort=banana”`, a long value cut short: how a reason names what it left out. */
export function quoteParam(key: string, value: string): string {
  const shown = value.length > QUOTED_MAX ? `${value.slice(0, QUOTED_MAX)}…` : value;
  return `“${key}=${shown}”`;
}

/** Gathers the reasons of the readings whose values it takes. */
export class Reasons {
  readonly list: string[] = [];
  take<T>(reading: Reading<T>): T {
    if (reading.reason !== null) this.list.push(reading.reason);
    return reading.value;
  }
  add(reason: string | null): void {
    if (reason !== null) this.list.push(reason);
  }
}

/** The keys of the link that the page has no use for, and those it has more than once. */
function keyProblems(params: URLSearchParams, known: readonly string[]): string[] {
  const keys = [...params.keys()];
  const unknown = new Set(keys.filter((key) => !known.includes(key)));
  const repeated = new Set(
    keys.filter((key, index) => known.includes(key) && keys.indexOf(key) !== index),
  );
  return [
    ...[...unknown].map(
      (key) => `“${key.slice(0, QUOTED_MAX)}” is not a setting of this page: it was left out.`,
    ),
    ...[...repeated].map(
      (key) => `“${key}” is in the link more than once: the first “${key}” is read.`,
    ),
  ];
}

/**
 * The reading of a search: the canonical one from the view's entries (null: the default),
 * the reasons of the values left out, and the keys the page does not know or has twice.
 */
export function searchReading(
  params: URLSearchParams,
  entries: readonly (readonly [string, string | null])[],
  reasons: Reasons,
  known: readonly string[] = entries.map(([key]) => key),
): SearchReading {
  const canonical = new URLSearchParams();
  for (const [key, value] of entries) if (value !== null) canonical.set(key, value);
  canonical.sort();
  return {
    search: searchText(canonical),
    reasons: [...reasons.list, ...keyProblems(params, known)],
  };
}

/** `-time` and the like; a value that is no sort of the list says what is shown instead. */
export function readSort<Id extends string>(
  value: string | null,
  allowed: readonly Id[],
  instead: string,
): Reading<SortState<Id> | null> {
  if (!value) return taken(null);
  const sort = parseSort(value, allowed);
  return sort
    ? taken(sort)
    : refused(
        null,
        `${quoteParam('sort', value)} is no sort of this list (${allowed.join(', ')}; a - before one reverses it): ${instead} is shown.`,
      );
}

/** `abs` or `rel`; anything else leaves the time display to the reader's own setting. */
export function readTimeDisplay(value: string | null): Reading<TimeDisplay | null> {
  if (!value) return taken(null);
  const display = parseTimeDisplay(value);
  return display
    ? taken(display)
    : refused(
        null,
        `${quoteParam('time', value)} is no time display (abs or rel): your own setting is used.`,
      );
}

/** Kinds of event, comma-separated in any case; the parts that are none are said. */
export function readKinds(value: string | null): Reading<EventKind[]> {
  if (!value) return taken([]);
  const parts = value.split(',').map((part) => part.trim().toLowerCase());
  const kinds = EVENT_KINDS.filter((kind) => parts.includes(kind));
  const unknown = parts.filter((part) => part !== '' && !EVENT_KINDS.includes(part as EventKind));
  if (unknown.length === 0) return taken(kinds);
  const names = unknown.map((part) => `“${part.slice(0, 40)}”`).join(', ');
  const what = unknown.length > 1 ? 'are no kinds' : 'is no kind';
  return refused(
    kinds,
    `${quoteParam('kind', value)}: ${names} ${what} of event (${EVENT_KINDS.join(', ')}): ${
      kinds.length > 0 ? 'left out' : 'every kind is shown'
    }.`,
  );
}

/** An address in any case, padded or not; anything else says what is shown instead. */
export function readAddress(
  key: string,
  value: string | null,
  instead: string,
): Reading<string | null> {
  if (!value) return taken(null);
  const address = canonicalAddress(value);
  return address
    ? taken(address)
    : refused(
        null,
        `${quoteParam(key, value)} is not an address (0x and up to 64 hexadecimal digits): ${instead}.`,
      );
}
