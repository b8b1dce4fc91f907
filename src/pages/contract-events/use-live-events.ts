import { useQuery } from '@tanstack/react-query';
import { useCallback, useMemo, useState } from 'react';
import { contractHeadQueryOptions } from '../../api/contract-events';
import { rowsOf } from '../../api/flatten';
import { contractEventRows } from '../../api/list-shapes';
import type { TokenEvent } from '../../lib/token-event';
import { keysOf } from '../../lib/twins';

/**
 * New events at the head of a contract's list. The newest page is polled (see
 * contractHeadQueryOptions); events in it that are not loaded yet are offered as
 * "N new events", and only added when the reader asks, so nothing moves under them.
 * The page's sale twins are joined as the list's are, and a row is known when it or any
 * record it was made of is loaded, so a sale is never offered again as its other half.
 */
export function useLiveEvents(address: string, loaded: readonly TokenEvent[], pageSize: number) {
  const [added, setAdded] = useState<TokenEvent[]>([]);
  const head = useQuery({
    ...contractHeadQueryOptions(address, pageSize),
    enabled: loaded.length > 0,
  });
  const headRows = useMemo(
    () => (head.data ? rowsOf(contractEventRows, head.data.items) : []),
    [head.data],
  );

  const fresh = useMemo(() => {
    const newest = loaded[0]?.timestamp;
    if (headRows.length === 0 || newest === undefined) return [];
    // Only loaded events as new as the head page can be in it: the list is newest first,
    // so the scan stops early instead of walking 100,000 loaded events on every poll.
    const oldestInHead = Math.min(...headRows.map((event) => event.timestamp));
    const known = new Set(added.flatMap(keysOf));
    for (const event of loaded) {
      if (event.timestamp < oldestInHead) break;
      for (const key of keysOf(event)) known.add(key);
    }
    return headRows.filter(
      (event) => event.timestamp >= newest && !keysOf(event).some((key) => known.has(key)),
    );
  }, [headRows, loaded, added]);

  const addFresh = useCallback(() => setAdded((old) => [...fresh, ...old]), [fresh]);
  /** More new events than one page holds: some may be missing between them and the loaded ones. */
  const gap =
    head.data !== undefined && fresh.length >= headRows.length && head.data.cursor !== null;
  return { added, fresh, addFresh, gap };
}
