import { useEffect, useEffectEvent } from 'react';

/** How long a stream the server refused or ended for good waits before it is opened again. */
const REOPEN_MS = 5_000;

/** The ranking's live stream: which collections have new changes of hands. */
export const LIVE_COLLECTIONS_PATH = '/api/live/collections';

/**
 * While the component is mounted, `changed` hears which collections have new rows
 * (`/api/live/collections`, Server-Sent Events, at most once a second). The stream has no
 * position: one opened again tells of what comes from then on.
 */
export function useLiveChanges(changed: (collections: string[]) => void) {
  const onChanged = useEffectEvent((collections: string[]) => changed(collections));
  useEffect(() => {
    if (typeof EventSource === 'undefined') return;
    let source: EventSource | null = null;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const open = () => {
      const current = new EventSource(LIVE_COLLECTIONS_PATH);
      source = current;
      current.addEventListener('changed', (event) => {
        const { collections } = JSON.parse(event.data as string) as { collections?: unknown };
        if (Array.isArray(collections)) onChanged(collections.filter((x) => typeof x === 'string'));
      });
      current.addEventListener('error', () => {
        if (current.readyState !== EventSource.CLOSED) return;
        timer = setTimeout(open, REOPEN_MS);
      });
    };
    open();
    return () => {
      clearTimeout(timer);
      source?.close();
    };
  }, []);
}
