import type { Context, Handler } from 'hono';
import type { Indexer } from '../indexer/indexer';
import type { ListReader, ListSpec } from '../log/list-reader';
import type { Monitoring } from '../monitoring';
import type { PageFailure } from '../upstream/page-read';
import type { ClientVariables } from './client-rate-limit';
import {
  errorResponse,
  methodNotAllowed,
  pageFailureError,
  SHUTTING_DOWN,
  type ErrorLimits,
} from './error-response';
import { matchApiRequest, type MatchedRequest } from './route-match';

/** The service's page size when a request names none. */
export const SERVICE_DEFAULT_LIMIT = 100;
const NO_ADDRESS_CLIENT = 'local';

export interface ListRouteOptions {
  indexer: Pick<Indexer, 'listingOf'>;
  reader: Pick<ListReader<PageFailure>, 'serve'>;
  /** Deadline for a page, the contracts list's read included. */
  timeoutMs: number;
  errorLimits: ErrorLimits;
  /** Requests waiting for the upstream, answered at once when the server stops. */
  waiting: WaitingRequests;
  monitoring?: Pick<Monitoring, 'pageServed'> | undefined;
}

/** Where a list route's records are kept in the log, and how they are ordered. */
export function listSpecOf({ route, list }: MatchedRequest): ListSpec {
  return {
    path: list,
    order: route.name === 'contract-events' ? 'newest-first' : 'stable',
    identity: route.name === 'contracts' ? 'contract' : 'event',
  };
}

/**
 * The catch-all under `/api/`: the service's own three list routes (`/api/v1`), checked
 * against the allow-list and served from the record log (the service asked only for what
 * the log lacks); any other path is a 404, any other method a 405.
 */
export function listRoute(options: ListRouteOptions): Handler<{ Variables: ClientVariables }> {
  const { indexer, reader, timeoutMs, errorLimits, waiting, monitoring } = options;

  /** A page that could not be served; once the server stops, every such answer is its 503. */
  const pageFailed = (failure: PageFailure) =>
    errorResponse(waiting.stopped() ? SHUTTING_DOWN : pageFailureError(failure, errorLimits));

  return async (c) => {
    if (c.req.method !== 'GET' && c.req.method !== 'HEAD') {
      return methodNotAllowed();
    }
    const url = new URL(c.req.url);
    const match = matchApiRequest(url);
    if (match.kind === 'not_found') return notFound();
    if (match.kind === 'bad_request') {
      return errorResponse({ kind: 'bad_request', status: 400, message: match.message });
    }
    const { request } = match;
    c.set('route', request.route.name);
    const client = c.get('client') ?? NO_ADDRESS_CLIENT;
    // Nothing more is sent upstream once the server stops.
    if (waiting.stopped()) return errorResponse(SHUTTING_DOWN);
    // Only contracts the service lists are read: any other address is an empty list, as
    // the service answers it, without a walk. Reading the contracts list for it is waited
    // for within the same deadline, and answered at once when the server stops.
    const listedThenServed = async () => {
      if (request.route.name !== 'contracts') {
        const listing = await indexer.listingOf(request.route.address);
        if (listing !== 'listed') return { kind: 'unlisted' as const, listing };
      }
      return reader.serve(
        listSpecOf(request),
        request.cursor ?? null,
        request.limit ?? SERVICE_DEFAULT_LIMIT,
        client,
      );
    };
    const served = await settleBy(listedThenServed(), timeoutMs, clientGone(c, waiting));
    if (served === 'late' || served === 'aborted') {
      return pageFailed({ kind: served === 'late' ? 'timeout' : 'aborted' });
    }
    if (served.kind === 'unlisted') return emptyList(served.listing);
    if (served.kind === 'foreign_cursor') {
      return errorResponse({
        kind: 'bad_request',
        status: 400,
        message:
          'cursor is not one this server gave for this list: pass back the cursor of the previous page unchanged.',
      });
    }
    if (served.upstreamReads > 0) c.set('upstreamStatus', served.kind === 'page' ? 200 : 'failed');
    if (served.kind === 'failed') return pageFailed(served.failure);
    monitoring?.pageServed(served.upstreamReads > 0 ? 'upstream' : 'log');
    const headers: Record<string, string> = {
      'content-type': 'application/json; charset=utf-8',
      'cache-control': 'no-store',
    };
    // Lets a client walking the whole list ask for the next page before parsing this one.
    if (served.next) headers['x-next-cursor'] = served.next;
    if (served.fault) headers['x-list-stopped'] = served.fault;
    return new Response(c.req.method === 'HEAD' ? null : (served.body as Uint8Array<ArrayBuffer>), {
      status: 200,
      headers,
    });
  };
}

/** What the service answers for a list it does not hold, with why in a header of ours. */
function emptyList(listing: 'not-listed' | 'unknown'): Response {
  return new Response('{"result":[],"cursor":null}', {
    status: 200,
    headers: {
      'content-type': 'application/json; charset=utf-8',
      'cache-control': 'no-store',
      'x-list-stopped':
        listing === 'not-listed'
          ? 'Not a collection the Token Events Service lists.'
          : 'The contracts list could not be read from the Token Events Service yet.',
    },
  });
}

export function notFound(): Response {
  return errorResponse({ kind: 'not_found', status: 404, message: 'No such API route.' });
}

/** What the proxy needs of Node's response object, when it runs on Node. */
interface NodeOutgoing {
  once(event: 'close', listener: () => void): unknown;
  readonly writableFinished: boolean;
}

/**
 * The cache misses being waited for, each by its abort controller, so that stopping the
 * server can answer them all at once. A set rather than listeners on one shared signal,
 * which Node warns about past ten.
 */
export function createWaitingRequests() {
  const controllers = new Set<AbortController>();
  let stopped = false;
  return {
    stopped: () => stopped,
    /** Aborts `controller` when the server stops (at once if it has); returns the untrack. */
    track(controller: AbortController): () => void {
      if (stopped) controller.abort(new Error('server stopping'));
      else controllers.add(controller);
      return () => controllers.delete(controller);
    },
    stop() {
      stopped = true;
      for (const controller of controllers) controller.abort(new Error('server stopping'));
      controllers.clear();
    },
  };
}

type WaitingRequests = ReturnType<typeof createWaitingRequests>;

/**
 * Aborts when the client leaves before its answer is sent, or when the server stops.
 * On Node the response object says when the client leaves; asking @hono/node-server for
 * the request's signal instead makes it build a whole WHATWG Request on every call, a
 * cost the cache-miss benchmark shows.
 */
function clientGone(c: Context, waiting: WaitingRequests): AbortSignal {
  const outgoing = (c.env as { outgoing?: NodeOutgoing } | undefined)?.outgoing;
  // Called in-process (tests): no socket, and no server to stop.
  if (!outgoing) return c.req.raw.signal;
  const controller = new AbortController();
  const untrack = waiting.track(controller);
  outgoing.once('close', () => {
    untrack();
    if (!outgoing.writableFinished) controller.abort(new Error('client gone'));
  });
  return controller.signal;
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
