import { getResponse, readSizedJson, withPageParams } from './client';
import type { PageParam } from './page-param';

/**
 * Walks to the end of a list ("Load full history", a token's history) ask for the
 * largest pages and read ahead, and their page params say so (see page-param.ts).
 *
 * Largest: cursors are not bound to a limit, and the service cuts every page at 1MB, so
 * a walk takes about 1,500 events a request instead of the 100 a screenful needs; under
 * the real service's 5 requests/s that is the difference between seconds and minutes.
 *
 * Read-ahead: our proxy names the next page's cursor in `X-Next-Cursor`, so the next
 * request can leave as soon as a page's headers arrive, before its body. Up to
 * `READ_AHEAD_PAGES` pages are in flight or waiting ahead of the reader, so the
 * browser's per-request latency, the transfers and our parsing overlap. Only lists being
 * walked do either: browsing never costs the upstream a page nobody asked for.
 *
 * A page asked for early is the request the reader's query would make, path for path
 * (cursor and limit included): read-ahead changes when a request leaves, never what it
 * asks. The pages asked for early live here, outside any query, because they must outlast
 * the query function call that started them.
 */

type SizedBody = Awaited<ReturnType<typeof readSizedJson>>;

/** Pages asked for ahead of the reader at most (1MB each at the walk's page size). */
export const READ_AHEAD_PAGES = 3;

interface Early {
  controller: AbortController;
  response: Promise<Response>;
  body: Promise<SizedBody>;
  /** The limit it asked for; the page after it asks for the same. */
  limit: number | undefined;
  /** The next cursor once the headers are in; null when there is none or the page failed. */
  next?: string | null;
}

interface Walk {
  users: number;
  /** Pages asked for ahead and not yet taken, by their full path. */
  early: Map<string, Early>;
  /** The last page asked for ahead: the chain goes on from its `next`. */
  tail?: Early;
}

/** Walks on, per list path (`/api/v1/events/0x…`). */
const walks = new Map<string, Walk>();

/**
 * Lets the walked pages of `list` read ahead from now on; the function returned stops
 * it and cancels what was asked for early.
 */
export function startReadAhead(list: string): () => void {
  const walk = walks.get(list) ?? { users: 0, early: new Map() };
  walk.users += 1;
  walks.set(list, walk);
  let stopped = false;
  return () => {
    if (stopped) return;
    stopped = true;
    walk.users -= 1;
    if (walk.users > 0) return;
    walks.delete(list);
    for (const entry of walk.early.values()) entry.controller.abort();
    walk.early.clear();
  };
}

/**
 * One page of a list as JSON (and its length), as its param says; taken from the
 * read-ahead when it was asked for early.
 */
export async function getListPage(
  list: string,
  { cursor, limit, readAhead }: PageParam,
  signal?: AbortSignal,
): Promise<SizedBody> {
  const walk = walks.get(list);
  const path = withPageParams(list, cursor, limit);
  const ready = walk?.early.get(path);
  if (!walk || !ready) {
    const response = await getResponse(path, signal);
    // A walked page fetched by the reader itself (the first, or one asked again after a
    // failure) starts the chain afresh from its own next cursor.
    if (readAhead && walk && walks.get(list) === walk) {
      const next = response.headers.get('x-next-cursor');
      if (next) askEarly(list, walk, next, limit);
    }
    return readSizedJson(response, signal);
  }
  walk.early.delete(path);
  pump(list, walk);
  await untilAborted(ready, ready.response, signal);
  return untilAborted(ready, ready.body, signal);
}

/** Asks for the page after the chain's last one while there is room ahead. */
function pump(list: string, walk: Walk): void {
  const tail = walk.tail;
  if (tail?.next && walk.early.size < READ_AHEAD_PAGES && walks.get(list) === walk) {
    askEarly(list, walk, tail.next, tail.limit);
  }
}

function askEarly(list: string, walk: Walk, cursor: string, limit: number | undefined): void {
  const path = withPageParams(list, cursor, limit);
  if (walk.early.has(path)) return;
  const controller = new AbortController();
  const response = getResponse(path, controller.signal);
  const entry: Early = {
    controller,
    response,
    body: response.then((later) => readSizedJson(later, controller.signal)),
    limit,
  };
  // Nobody may ever ask for it (the walk stops); its failure is then nobody's to hear.
  entry.body.catch(() => {});
  walk.early.set(path, entry);
  walk.tail = entry;
  response.then(
    (later) => {
      entry.next = later.headers.get('x-next-cursor');
      pump(list, walk);
    },
    () => {
      entry.next = null;
    },
  );
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
