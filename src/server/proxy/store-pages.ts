import type { EventStore, ListSpec } from '../store/event-store';
import type { PageFailure } from '../upstream/page-read';
import type { PageLoader, PageSource } from './page-loader';
import type { MatchedRequest } from './route-match';

/** The service's page size when a request names none. */
export const SERVICE_DEFAULT_LIMIT = 100;

/** Where a list route's records are kept in the event store, and how they are ordered. */
export function listSpecOf({ route, list }: MatchedRequest): ListSpec {
  return {
    path: list,
    order: route.name === 'contract-events' ? 'newest-first' : 'stable',
    identity: route.name === 'contracts' ? 'contract' : 'event',
  };
}

/**
 * A miss served by the event store: the list's records after the request's cursor (one
 * of the store's own), read from the upstream only where the store lacks them. The
 * store's work goes on when the request gives up (others may be waiting for the same
 * records), but the request is answered once `timeoutMs` has passed, or at once when
 * its client leaves or the server stops.
 */
export function storePages(pages: PageLoader, store: EventStore<PageFailure>, timeoutMs: number) {
  return (request: MatchedRequest, client: string): PageSource =>
    async (signal) => {
      const served = store.serve(
        listSpecOf(request),
        request.cursor ?? null,
        request.limit ?? SERVICE_DEFAULT_LIMIT,
        client,
      );
      const outcome = await settleBy(served, timeoutMs, signal);
      if (outcome === 'late') return { kind: 'failed', failure: { kind: 'timeout' } };
      if (outcome === 'aborted') return { kind: 'failed', failure: { kind: 'aborted' } };
      switch (outcome.kind) {
        case 'page': {
          // What lies between two cursors of one copy of a list never changes.
          const settled = request.cursor !== undefined && outcome.settled && outcome.next !== null;
          const page = pages.page(outcome.body, outcome.next, settled);
          return { kind: 'page', page, ...(outcome.upstreamReads > 0 && { upstreamStatus: 200 }) };
        }
        case 'failed':
          return { kind: 'failed', failure: outcome.failure };
        case 'foreign_cursor':
        case 'expired_cursor':
          // A cursor of a copy dropped since, or of the upstream from before the store.
          return { kind: 'failed', failure: { kind: 'expired_cursor' } };
      }
    };
}

/** The work's result, unless `ms` pass first or `signal` aborts (the client left, the server stops). */
function settleBy<T>(
  work: Promise<T>,
  ms: number,
  signal: AbortSignal,
): Promise<T | 'late' | 'aborted'> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let onAbort: (() => void) | undefined;
  const stop = new Promise<'late' | 'aborted'>((resolve) => {
    timer = setTimeout(() => resolve('late'), ms);
    onAbort = () => resolve('aborted');
    if (signal.aborted) onAbort();
    else signal.addEventListener('abort', onAbort, { once: true });
  });
  return Promise.race([work, stop]).finally(() => {
    clearTimeout(timer);
    signal.removeEventListener('abort', onAbort!);
  });
}
