import { useCallback, useState } from 'react';
import { useLiveRows } from '../api/use-live-rows';
import type { EventRow } from '../lib/answers';
import { formatCount } from '../lib/format';
import type { LiveFit } from '../lib/live-fit';
import { announce } from './announce';

export interface NewRowsOptions {
  /** The live stream (`/api/live/…`). */
  path: string;
  /** What makes the view: when it changes, what was counted or marked is forgotten. */
  viewKey: string;
  /** Where a row goes in the view, by what the row says of itself (`src/lib/live-fit.ts`). */
  fit: (row: EventRow) => LiveFit;
  /**
   * Puts rows the view can take into it at once and returns the newest time it showed
   * before (rows after it are marked new); null when it cannot (nothing loaded yet): they
   * are then counted, for "Show N new events".
   */
  place: (rows: EventRow[]) => number | null;
  /** After each batch: what follows new rows (figures, charts). */
  follow: () => void;
  /** Loads the view again: the stream could not give what was missed, or "show" was asked. */
  reload: () => void;
  /** What "show" does when loading the view again would not show them (a past span). */
  showFresh?: () => void;
}

/**
 * New changes of hands from a page's live stream, one way for every page: rows the view
 * can take go in at once, marked new (`freshSince`) and announced; rows it cannot show as
 * it stands (another sort, a past span) are counted (`fresh`) and `show` loads the view
 * again, or widens it. The figures follow either way.
 */
export function useNewRows({
  path,
  viewKey,
  fit,
  place,
  follow,
  reload,
  showFresh = reload,
}: NewRowsOptions) {
  const [fresh, setFresh] = useState<{ key: string; count: number }>({ key: '', count: 0 });
  const [marked, setMarked] = useState<{ key: string; since: number } | null>(null);

  useLiveRows(path, {
    rows: (rows) => {
      const placed = rows.filter((row) => fit(row) === 'place');
      const since = placed.length > 0 ? place(placed) : null;
      if (since !== null) {
        // Rows newer than the view's newest when the first of them came are marked new.
        setMarked((before) => (before?.key === viewKey ? before : { key: viewKey, since }));
        announce(`${formatCount(placed.length)} new event${placed.length === 1 ? '' : 's'}`);
      }
      const counted =
        rows.filter((row) => fit(row) === 'count').length + (since === null ? placed.length : 0);
      if (counted > 0) {
        setFresh((before) => ({
          key: viewKey,
          count: (before.key === viewKey ? before.count : 0) + counted,
        }));
      }
      follow();
    },
    reset: reload,
  });

  const show = useCallback(() => {
    setFresh({ key: viewKey, count: 0 });
    showFresh();
  }, [viewKey, showFresh]);

  return {
    fresh: fresh.key === viewKey ? fresh.count : 0,
    show,
    freshSince: marked?.key === viewKey ? marked.since : null,
  };
}
