import { useEffect, useEffectEvent } from 'react';
import { keepStreamOpen } from './event-stream';

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
    return keepStreamOpen(() => {
      const current = new EventSource(LIVE_COLLECTIONS_PATH);
      current.addEventListener('changed', (event) => {
        const { collections } = JSON.parse(event.data as string) as { collections?: unknown };
        if (Array.isArray(collections)) onChanged(collections.filter((x) => typeof x === 'string'));
      });
      return current;
    });
  }, []);
}
