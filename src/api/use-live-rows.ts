import { useEffect, useEffectEvent } from 'react';
import type { EventRow } from '../lib/answers';
import { keepStreamOpen } from './event-stream';

export interface LiveHandlers {
  /** New rows of the stream, oldest first, each once. */
  rows: (rows: EventRow[]) => void;
  /** The server could not give what was missed: the view should be loaded again. */
  reset: () => void;
}

/**
 * A live stream of the server (`/api/live/…`, Server-Sent Events) while the component is
 * mounted: its new changes of hands, handed over a batch at a time. The browser opens a
 * dropped stream again by itself with the last event id; a stream it gives up on (the
 * server restarted, a 429) is opened again here with that id (`after`), so no row is
 * missed. A row already handed over is never handed over again.
 */
export function useLiveRows(path: string | null, handlers: LiveHandlers) {
  const onRows = useEffectEvent((rows: EventRow[]) => handlers.rows(rows));
  const onReset = useEffectEvent(() => handlers.reset());
  useEffect(() => {
    if (path === null || typeof EventSource === 'undefined') return;
    const seen = new Set<string>();
    let lastId: string | null = null;
    let batch: EventRow[] = [];
    const flush = () => {
      const rows = batch;
      batch = [];
      if (rows.length > 0) onRows(rows);
    };
    return keepStreamOpen(() => {
      const url = lastId ? `${path}?after=${encodeURIComponent(lastId)}` : path;
      const current = new EventSource(url);
      current.addEventListener('ready', (event) => (lastId = event.lastEventId || lastId));
      current.addEventListener('change', (event) => {
        lastId = event.lastEventId || lastId;
        const row = JSON.parse(event.data as string) as EventRow;
        if (seen.has(row.id)) return;
        seen.add(row.id);
        // Rows of one read come together: handed over as one batch.
        if (batch.length === 0) queueMicrotask(flush);
        batch.push(row);
      });
      current.addEventListener('reset', (event) => {
        lastId = event.lastEventId || lastId;
        onReset();
      });
      return current;
    });
  }, [path]);
}
