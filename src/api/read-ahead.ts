import { getResponse, readJson, withPageParams } from './client';

/**
 * Walks to the end of a list ("Load full history", a token's history) ask for the
 * largest pages and read ahead. Largest: cursors are not bound to a limit, and the
 * service cuts every page at 1MB, so a walk takes about 1,500 events a request instead of
 * the 100 a screenful needs, which under the real service's 5 requests/s is the
 * difference between seconds and minutes. Read-ahead: our proxy names the next page's
 * cursor in `X-Next-Cursor`, so while one page is read and normalised the next is
 * already on its way, and network and parsing overlap. Only lists being walked do
 * either, one page ahead at most: browsing never costs the upstream a page nobody asked for.
 */
interface Early {
  list: string;
  controller: AbortController;
  response: Promise<Response>;
  body: Promise<unknown>;
}

/** The proxy's largest `limit`; the service then fills each page up to its 1MB cap. */
export const WALK_PAGE_LIMIT = 5000;

/** Walks on, per list path (`/api/v1/events/0x…`), and the page size they ask for. */
const walkers = new Map<string, { count: number; limit: number }>();
/** Pages requested ahead, by their full path. */
const early = new Map<string, Early>();

/** Starts a walk on `list`; the function returned stops it and drops what was early. */
export function startWalk(list: string, limit = WALK_PAGE_LIMIT): () => void {
  walkers.set(list, { count: (walkers.get(list)?.count ?? 0) + 1, limit });
  let stopped = false;
  return () => {
    if (stopped) return;
    stopped = true;
    const walk = walkers.get(list);
    if (walk && walk.count > 1) return void (walk.count -= 1);
    walkers.delete(list);
    for (const [path, entry] of early) {
      if (entry.list !== list) continue;
      entry.controller.abort();
      early.delete(path);
    }
  };
}

/**
 * One page of a list as JSON: `requested` items, or the walk's page size while a walk is
 * on; taken from the read-ahead when it was asked for early.
 */
export async function getListPage(
  list: string,
  cursor: string | null,
  requested: number | undefined,
  signal?: AbortSignal,
): Promise<unknown> {
  const limit = walkers.get(list)?.limit ?? requested;
  const path = withPageParams(list, cursor, limit);
  const ready = early.get(path);
  if (!ready) {
    const response = await getResponse(path, signal);
    readAhead(list, response, limit);
    return readJson(response, signal);
  }
  early.delete(path);
  const response = await untilAborted(ready, ready.response, signal);
  readAhead(list, response, limit);
  return untilAborted(ready, ready.body, signal);
}

/** The early page as the caller's own request would be: its abort cancels and rejects. */
function untilAborted<T>(ready: Early, promise: Promise<T>, signal?: AbortSignal): Promise<T> {
  if (!signal) return promise;
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => {
      ready.controller.abort(signal.reason);
      reject(signal.reason);
    };
    if (signal.aborted) return onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

function readAhead(list: string, response: Response, limit: number | undefined): void {
  const walk = walkers.get(list);
  if (!walk || walk.limit !== limit) return;
  const next = response.headers.get('x-next-cursor');
  if (!next) return;
  const path = withPageParams(list, next, limit);
  if (early.has(path)) return;
  const controller = new AbortController();
  const headers = getResponse(path, controller.signal);
  const body = headers.then((later) => readJson(later, controller.signal));
  // Nobody may ever ask for it (the walk stops); its failure is then nobody's to hear.
  body.catch(() => {});
  early.set(path, { list, controller, response: headers, body });
}
