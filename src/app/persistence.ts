import type { InfiniteData, Query, QueryClient } from '@tanstack/react-query';
import {
  persistQueryClientRestore,
  persistQueryClientSubscribe,
  type PersistedClient,
  type Persister,
} from '@tanstack/react-query-persist-client';
import { del, get, set } from 'idb-keyval';
import type { Page } from '../lib/page';

/**
 * Loaded lists kept across a reload (and a browser restart), so a reload shows the same
 * rows at once and the scroll position can be given back. Only event lists are kept:
 * their pages never change (new events come at the head, offered apart). A kept cursor
 * may have died meanwhile; the lists then read on from their head (see use-infinite-list).
 */

/** Changed when the kept data's shape changes: a copy of another shape is dropped, not misread. */
const BUSTER = 'events-v1';
const MAX_AGE_MS = 24 * 3600_000;
/**
 * Events kept per list at most (its first pages); the pages after them are read again
 * when needed. Each save writes every kept list, so the bound keeps a save short while
 * "Load full history" brings page after page.
 */
export const KEPT_EVENTS_PER_LIST = 20_000;
/** Saves are gathered for this long: a list loading page after page is saved once a while. */
const SAVE_EVERY_MS = 1000;

const isEventList = (query: Query) =>
  query.queryKey[0] === 'events' && query.queryKey.includes('list');

/** A copy of the client's kept lists, each cut to its first `KEPT_EVENTS_PER_LIST` events. */
function trimmed(client: PersistedClient): PersistedClient {
  const queries = client.clientState.queries.map((query) => {
    const data = query.state.data as InfiniteData<Page<unknown>, unknown> | undefined;
    if (!data?.pages) return query;
    let events = 0;
    let keep = 0;
    while (keep < data.pages.length && (keep === 0 || events < KEPT_EVENTS_PER_LIST)) {
      events += data.pages[keep]!.items.length;
      keep += 1;
    }
    if (keep === data.pages.length) return query;
    const cut = { pages: data.pages.slice(0, keep), pageParams: data.pageParams.slice(0, keep) };
    return { ...query, state: { ...query.state, data: cut } };
  });
  return { ...client, clientState: { ...client.clientState, queries } };
}

/** Keeps the client in IndexedDB (structured clone: no JSON of 20,000 events per save). */
export function indexedDbPersister(key = 'token-activity-lists'): Persister {
  return {
    persistClient: (client) => set(key, client),
    restoreClient: () => get<PersistedClient>(key),
    removeClient: () => del(key),
  };
}

/**
 * Restores the kept lists into `queryClient` (within `waitMs`: a slow store never holds
 * the page back), then keeps them as they change: at most one save a second, and one
 * more when the page is left.
 */
export async function keepLists(
  queryClient: QueryClient,
  persister: Persister,
  waitMs = 1000,
): Promise<() => void> {
  const options = {
    queryClient,
    buster: BUSTER,
    maxAge: MAX_AGE_MS,
    dehydrateOptions: {
      shouldDehydrateQuery: (query: Query) =>
        isEventList(query) && query.state.status === 'success',
    },
  };
  await Promise.race([
    persistQueryClientRestore({ ...options, persister }).catch(() => {}),
    new Promise((resolve) => setTimeout(resolve, waitMs)),
  ]);
  let latest: PersistedClient | null = null;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const save = () => {
    clearTimeout(timer);
    timer = undefined;
    if (latest) void Promise.resolve(persister.persistClient(trimmed(latest))).catch(() => {});
    latest = null;
  };
  const gathering: Persister = {
    ...persister,
    persistClient: (client) => {
      latest = client;
      timer ??= setTimeout(save, SAVE_EVERY_MS);
    },
  };
  const stop = persistQueryClientSubscribe({ ...options, persister: gathering });
  window.addEventListener('pagehide', save);
  return () => {
    save();
    stop();
    window.removeEventListener('pagehide', save);
  };
}
