import { EVENT_KINDS, type EventKind } from './token-event';

/**
 * View state that lives in the URL, so reload, back/forward and a shared link all
 * reopen the same view. Parsing is forgiving (unknown values fall back to defaults, and
 * `param-reading.ts` says why); writing leaves defaults out so canonical URLs stay short.
 */
export interface SortState<Id extends string = string> {
  id: Id;
  desc: boolean;
}

export type TimeDisplay = 'relative' | 'absolute';

/** `-time` → time descending; `name` → name ascending; anything else → null. */
export function parseSort<Id extends string>(
  value: string | null,
  allowed: readonly Id[],
): SortState<Id> | null {
  if (!value) return null;
  const desc = value.startsWith('-');
  const id = allowed.find((candidate) => candidate === (desc ? value.slice(1) : value));
  return id === undefined ? null : { id, desc };
}

export function formatSort(sort: SortState | null): string | null {
  return sort ? `${sort.desc ? '-' : ''}${sort.id}` : null;
}

export function parseKinds(value: string | null): EventKind[] {
  if (!value) return [];
  const wanted = new Set(value.split(',').map((part) => part.trim().toLowerCase()));
  return EVENT_KINDS.filter((kind) => wanted.has(kind));
}

export function formatKinds(kinds: readonly EventKind[]): string | null {
  const set = new Set(kinds);
  const ordered = EVENT_KINDS.filter((kind) => set.has(kind));
  return ordered.length ? ordered.join(',') : null;
}

/** `abs` or `rel` when the URL chooses; null leaves it to the reader's own setting. */
export function parseTimeDisplay(value: string | null): TimeDisplay | null {
  return value === 'abs' ? 'absolute' : value === 'rel' ? 'relative' : null;
}

export function formatTimeDisplay(value: TimeDisplay | null): string | null {
  return value === 'absolute' ? 'abs' : value === 'relative' ? 'rel' : null;
}

/**
 * Returns `params` with the given entries set (null removes them), in a fixed key
 * order so equal views always produce equal URLs.
 */
export function updateSearch(
  params: URLSearchParams,
  changes: Record<string, string | null>,
): URLSearchParams {
  const next = new URLSearchParams(params);
  for (const [key, value] of Object.entries(changes)) {
    if (value === null || value === '') next.delete(key);
    else next.set(key, value);
  }
  next.sort();
  return next;
}

/** A search string: `?` and the params, or '' when there are none. */
export function searchText(params: URLSearchParams): string {
  const text = params.toString();
  return text ? `?${text}` : '';
}
