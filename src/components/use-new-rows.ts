import { useCallback, useState } from 'react';
import { useLiveRows } from '../api/use-live-rows';
import type { EventRow } from '../lib/answers';
import { formatCount } from '../lib/format';
import { announce } from './announce';

export interface NewRowsOptions {
  /** The live stream (`/api/live/…`). */
  path: string;
  /** What makes the view: when it changes, what was counted or marked is forgotten. */
  viewKey: string;
  /** A row the view can hold, by what the row says of itself. */
  belongs: (row: EventRow) => boolean;
  /**
   * Puts rows the view holds into it at once and returns the newest time it showed
   * before (rows after it are marked new); null when it cannot (another sort): they are
   * then counted, for "Show N new events".
   */
  place: (rows: EventRow[]) => number | null;
  /** After each batch: what follows new rows (figures, charts). */
  follow: () => void;
  /** Loads the view again: the stream could not give what was missed, or "show" was asked. */
  reload: () => void;
}

/**
 * New changes of hands from a page's live stream, one way for every page: rows the view
 * can hold go in at once where it can place them, marked new (`freshSince`) and
 * announced; elsewhere they are counted (`fresh`) and `show` loads the view again. The
 * figures follow either way.
 */
export function useNewRows({ path, viewKey, belongs, place, follow, reload }: NewRowsOptions) {
  const [fresh, setFresh] = useState<{ key: string; count: number }>({ key: '', count: 0 });
  const [marked, setMarked] = useState<{ key: string; since: number } | null>(null);

  useLiveRows(path, {
    rows: (rows) => {
      const mine = rows.filter(belongs);
      const since = mine.length > 0 ? place(mine) : null;
      if (since !== null) {
        // Rows newer than the view's newest when the first of them came are marked new.
        setMarked((before) => (before?.key === viewKey ? before : { key: viewKey, since }));
        announce(`${formatCount(mine.length)} new event${mine.length === 1 ? '' : 's'}`);
      } else if (mine.length > 0) {
        setFresh((before) => ({
          key: viewKey,
          count: (before.key === viewKey ? before.count : 0) + mine.length,
        }));
      }
      follow();
    },
    reset: reload,
  });

  const show = useCallback(() => {
    setFresh({ key: viewKey, count: 0 });
    reload();
  }, [viewKey, reload]);

  return {
    fresh: fresh.key === viewKey ? fresh.count : 0,
    show,
    freshSince: marked?.key === viewKey ? marked.since : null,
  };
}
