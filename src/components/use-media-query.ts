import { useSyncExternalStore } from 'react';
import breakpoints from './breakpoints.module.css';

/**
 * One MediaQueryList per query: React reads the snapshot on every render, and the data
 * table renders on every scroll frame; `matchMedia` parses the query anew each call.
 */
const lists = new Map<string, { match: typeof window.matchMedia; list: MediaQueryList }>();
function mediaList(query: string): MediaQueryList | null {
  const match = typeof window.matchMedia === 'function' ? window.matchMedia : null;
  if (!match) return null;
  let cached = lists.get(query);
  // A replaced matchMedia (tests stub it) gets lists of its own.
  if (cached?.match !== match) {
    cached = { match, list: match.call(window, query) };
    lists.set(query, cached);
  }
  return cached.list;
}

/** Whether a CSS media query matches now; re-renders when that changes. */
export function useMediaQuery(query: string): boolean {
  return useSyncExternalStore(
    (onChange) => {
      const list = mediaList(query);
      if (!list) return () => {};
      list.addEventListener('change', onChange);
      return () => list.removeEventListener('change', onChange);
    },
    () => mediaList(query)?.matches ?? false,
  );
}

/** Below this width rows are shown as cards: the media query the CSS modules use. */
export const PHONE_QUERY = breakpoints.phone!;
