import { useCallback, useEffect, useState } from 'react';
import type { InfiniteList } from '../../api/use-infinite-list';

/** Matching rows a reader should find below them before the scan stops: a screenful. */
export const SCREENFUL_ROWS = 30;
/** Events read for one screenful of matches at most before the scan waits for a click. */
export const SCAN_BUDGET_EVENTS = 5_000;

/**
 * Under a filter the loaded rows that match may be few: reads on by itself until a
 * screenful more matches, or the list ends, or `SCAN_BUDGET_EVENTS` were read for it
 * (a filter that matches nothing must not read a 100,000-event list page by page); then
 * `more()` (the reader nearing the end, or a click) asks for the next screenful.
 */
export function useFilterScan(list: InfiniteList<unknown>, filter: string, matches: number) {
  const loaded = list.items.length;
  const [goal, setGoal] = useState({ filter, wanted: SCREENFUL_ROWS, from: loaded });
  // A new filter sets a new goal at once (state from the previous render, as React allows):
  // a screenful of matches in all, as when a link opens the page with that filter, so a
  // view and its copied URL show the same rows.
  if (goal.filter !== filter) setGoal({ filter, wanted: SCREENFUL_ROWS, from: loaded });

  const wanting = filter !== '' && list.hasMore && matches < goal.wanted;
  const scanning = wanting && loaded - goal.from < SCAN_BUDGET_EVENTS;
  const { loadMoreAuto } = list;
  useEffect(() => {
    if (scanning) loadMoreAuto();
  }, [scanning, loadMoreAuto, list.pages]);

  const more = useCallback(() => {
    if (scanning) return;
    setGoal({ filter, wanted: matches + SCREENFUL_ROWS, from: loaded });
  }, [scanning, filter, matches, loaded]);

  return {
    scanning,
    /** The budget is spent without a screenful of matches: reading on waits for a click. */
    paused: wanting && !scanning,
    more,
  };
}
