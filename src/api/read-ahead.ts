import { getResponse, readJson, withPageParams } from './client';

/**
 * Read-ahead for walks to the end of a list ("Load full history", a token's history):
 * our proxy names the next page's cursor in `X-Next-Cursor`, so while one page is read
 * and normalised the next is already on its way, and network and parsing overlap. Only
 * lists being walked read ahead, one page at most: browsing never costs the upstream a
 * page nobody asked for.
 */
interface Early {
  list: string;
  controller: AbortController;
  response: Promise<Response>;
  body: Promise<unknown>;
}

/** Walkers per list path (`/api/v1/events/0x…`). */
const walkers = new Map<string, number>();
/** Pages requested ahead, by their full path. */
const early = new Map<string, Early>();

/** Starts reading ahead on `list`; the function returned stops it and drops what was early. */
export function startWalk(list: string): () => void {
  walkers.set(list, (walkers.get(list) ?? 0) + 1);
  let stopped = false;
  return () => {
    if (stopped) return;
    stopped = true;
    const left = (walkers.get(list) ?? 1) - 1;
    if (left > 0) return void walkers.set(list, left);
    walkers.delete(list);
    for (const [path, entry] of early) {
      if (entry.list !== list) continue;
      entry.controller.abort();
      early.delete(path);
    }
  };
}

/** One page of a list as JSON, taken from the read-ahead when it was asked for early. */
export async function getListPage(
  list: string,
  cursor: string | null,
  limit: number | undefined,
  signal?: AbortSignal,
): Promise<unknown> {
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
  if (!walkers.has(list)) return;
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
