import { useCallback } from 'react';
import { useSearchParams } from 'react-router';
import {
  formatSort,
  formatTimeDisplay,
  parseTimeDisplay,
  updateSearch,
  type SortState,
  type TimeDisplay,
} from '../lib/view-state';
import { useSettings } from './settings';

/**
 * A page's view state in the URL's search: the params; `set`, which sets some entries
 * (null removes one) in place of the history entry rather than adding one; the sort's
 * setter; and the time display, the URL's choice or else the reader's setting, with its
 * setter.
 */
export function useViewSearch() {
  const [params, setParams] = useSearchParams();
  const { timeDisplay } = useSettings();
  const set = useCallback(
    (changes: Record<string, string | null>) =>
      setParams((old) => updateSearch(old, changes), { replace: true }),
    [setParams],
  );
  const setSort = useCallback((next: SortState | null) => set({ sort: formatSort(next) }), [set]);
  const display = parseTimeDisplay(params.get('time')) ?? timeDisplay;
  const setDisplay = useCallback(
    (next: TimeDisplay) => set({ time: formatTimeDisplay(next) }),
    [set],
  );
  return { params, set, setSort, display, setDisplay };
}
