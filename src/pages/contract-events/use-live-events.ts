import { useQuery } from '@tanstack/react-query';
import { useCallback, useMemo, useState } from 'react';
import { contractHeadQueryOptions } from '../../api/contract-events';
import type { TokenEvent } from '../../lib/token-event';

/**
 * New events at the head of a contract's list. The newest page is polled (see
 * contractHeadQueryOptions); events in it that are not loaded yet are offered as
 * "N new events", and only added when the reader asks, so nothing moves under them.
 */
export function useLiveEvents(address: string, loaded: readonly TokenEvent[], pageSize: number) {
  const [added, setAdded] = useState<TokenEvent[]>([]);
  const head = useQuery({
    ...contractHeadQueryOptions(address, pageSize),
    enabled: loaded.length > 0,
  });

  const fresh = useMemo(() => {
    const newest = loaded[0]?.timestamp;
    if (!head.data || newest === undefined) return [];
    // Only loaded events as new as the head page can be in it: the list is newest first,
    // so the scan stops early instead of walking 100,000 loaded events on every poll.
    const oldestInHead = Math.min(...head.data.items.map((event) => event.timestamp));
    const known = new Set(added.map((event) => event.key));
    for (const event of loaded) {
      if (event.timestamp < oldestInHead) break;
      known.add(event.key);
    }
    return head.data.items.filter((event) => !known.has(event.key) && event.timestamp >= newest);
  }, [head.data, loaded, added]);

  const addFresh = useCallback(() => setAdded((old) => [...fresh, ...old]), [fresh]);
  /** More new events than one page holds: some may be missing between them and the loaded ones. */
  const gap =
    head.data !== undefined && fresh.length >= head.data.items.length && head.data.cursor !== null;
  return { added, fresh, addFresh, gap };
}
