import { Hono, type Context } from 'hono';
import { streamSSE, type SSEStreamingApi } from 'hono/streaming';
import type { EventRow } from '../../lib/answers';
import { API_ROUTES, honoPath } from '../api/api-routes';
import {
  contractAddress,
  emptyParams,
  liveParams,
  problemOf,
  tokenParam,
  walletAddress,
} from '../api/params';
import type { Indexer } from '../indexer/indexer';
import { errorResponse } from '../proxy/error-response';
import type { LiveHub, LivePosition } from './live-hub';
import {
  parseWalletPosition,
  subscribeWallet,
  walletLiveParams,
  type WalletSink,
  type WalletSubscription,
} from './wallet-stream';

/**
 * The live routes (Server-Sent Events): a collection's new changes of hands, or one
 * token's, as the hub (live-hub.ts) reads them. Each row is an event `change` whose id is
 * the stream's position after it, so the browser's EventSource, opened again after a
 * drop, sends it back (`Last-Event-ID`) and the stream goes on from there; `ready` says
 * the position a stream starts at, `reset` that the one asked for was too far behind
 * (the page loads its view again).
 */

/** Where live streams are answered: outside the per-request share of the server's time. */
export const LIVE_PREFIX = '/api/live/';

/** How long the browser waits before opening a dropped stream again. */
const RETRY_MS = 2_000;
/** A comment this often keeps proxies and load balancers from closing a quiet stream. */
const KEEP_ALIVE_MS = 20_000;
/** The ranking's stream tells of new rows this often at most. */
const CHANGES_EVERY_MS = 1_000;
/** Rows waiting to be written to a client that does not read: past it, the stream ends. */
const MAX_UNSENT_ROWS = 2_000;

/**
 * A stream's writes, one after another (one that fails ends the stream: `onEnd`), after
 * the browser's retry interval, with a comment every `KEEP_ALIVE_MS` until `stop`.
 */
function writer(sse: SSEStreamingApi, onEnd: () => void) {
  let writing: Promise<unknown> = sse.write(`retry: ${RETRY_MS}\n\n`);
  const then = (write: () => Promise<unknown>) => {
    writing = writing.then(write).catch(onEnd);
  };
  const keepAlive = setInterval(() => then(() => sse.write(': keep-alive\n\n')), KEEP_ALIVE_MS);
  return { then, stop: () => clearInterval(keepAlive) };
}

export interface LiveApiOptions {
  hub: LiveHub;
  indexer: Pick<Indexer, 'storedListing' | 'listingOf'>;
  /** Streams one client may hold open at once (0: no bound). */
  streamsPerClient: number;
}

const positionId = (position: LivePosition) => `${position.after}_${position.floor}`;

/** A stream's id as the browser sends it back; null for anything else. */
export function parsePosition(text: string | undefined): LivePosition | null {
  const match = /^(\d{1,15})_(\d{1,12})$/.exec(text ?? '');
  return match ? { after: Number(match[1]), floor: Number(match[2]) } : null;
}

export function createLiveApi({ hub, indexer, streamsPerClient }: LiveApiOptions) {
  const app = new Hono<{ Variables: { route: string; client?: string } }>();
  const open_ = new Map<string, number>();

  const badRequest = (message: string) =>
    errorResponse({ kind: 'bad_request', status: 400, message });

  /** A collection's stream, or one token's, after the collection is found listed. */
  async function collectionStream(c: Context, route: string, tokenId: string | undefined) {
    c.set('route', route);
    const address = contractAddress.safeParse(c.req.param('address'));
    if (!address.success) return badRequest(problemOf(address.error));
    const params = liveParams.safeParse(Object.fromEntries(new URL(c.req.url).searchParams));
    if (!params.success) return badRequest(problemOf(params.error));
    const from = parsePosition(c.req.header('last-event-id') ?? params.data.after);
    let listing = await indexer.storedListing(address.data);
    if (listing !== 'listed') listing = await indexer.listingOf(address.data);
    if (listing !== 'listed') {
      return errorResponse({
        kind: 'not_found',
        status: 404,
        message: `${address.data} is not a collection the Token Events Service lists.`,
      });
    }
    return stream(c, async (sink) => {
      const idsOf = (rows: readonly EventRow[], position: LivePosition) =>
        rows.map((row, index) =>
          positionId(index === rows.length - 1 ? position : { ...position, after: Number(row.id) }),
        );
      const subscription = await hub.subscribe(address.data, from, {
        send: (rows, position) => sink.send(rows, idsOf(rows, position)),
        end: () => sink.end(),
        ...(tokenId !== undefined && { tokenId }),
      });
      return {
        missed: subscription.missed,
        missedIds: idsOf(subscription.missed, subscription.position),
        reset: subscription.reset,
        at: positionId(subscription.position),
        stop: subscription.stop,
      };
    });
  }

  /** A wallet's stream: its latest collections' rows from or to it (wallet-stream.ts). */
  function walletStream(c: Context) {
    c.set('route', honoPath(API_ROUTES.liveWallet));
    const address = walletAddress.safeParse(c.req.param('address'));
    if (!address.success) return badRequest(problemOf(address.error));
    const params = walletLiveParams.safeParse(Object.fromEntries(new URL(c.req.url).searchParams));
    if (!params.success) return badRequest(problemOf(params.error));
    const from = parseWalletPosition(c.req.header('last-event-id') ?? params.data.after);
    return stream(c, (sink) => subscribeWallet(hub, address.data, from, sink));
  }

  /**
   * Answers a stream, within the client's bound: `open` subscribes, handing rows to the
   * sink with their event ids, and says what was missed and where the stream starts.
   */
  /**
   * Counts a stream to its client, or refuses it past the client's bound: the function
   * that ends the count, or the 429 to answer.
   */
  function hold(c: Context): (() => void) | Response {
    const client = (c.get('client') as string | undefined) ?? 'local';
    const held = open_.get(client) ?? 0;
    if (streamsPerClient > 0 && held >= streamsPerClient) {
      return errorResponse({
        kind: 'client_rate_limited',
        status: 429,
        message: `This dashboard keeps ${streamsPerClient} live pages open per address, and yours has that many: close one, or reload this page later.`,
        retryAfterSeconds: 30,
      });
    }
    open_.set(client, held + 1);
    return () => {
      const left = (open_.get(client) ?? 1) - 1;
      if (left === 0) open_.delete(client);
      else open_.set(client, left);
    };
  }

  /** Ends `done` when the client goes away. */
  function onClose(c: Context, sse: { onAbort(f: () => void): void }, done: () => void) {
    sse.onAbort(done);
    (c.env as { outgoing?: { once(e: 'close', f: () => void): void } } | undefined)?.outgoing?.once(
      'close',
      done,
    );
  }

  /**
   * The ranking's stream: every second at most, which collections have new rows
   * (`changed`, `{"collections": ["0x…"]}`), as the hub hears of them. It starts no head
   * read and reads no row, and has nothing to resume: a page told late asks again.
   */
  function changesStream(c: Context) {
    c.set('route', honoPath(API_ROUTES.liveCollections));
    const params = emptyParams.safeParse(Object.fromEntries(new URL(c.req.url).searchParams));
    if (!params.success) return badRequest(problemOf(params.error));
    const leave = hold(c);
    if (leave instanceof Response) return leave;
    c.header('x-accel-buffering', 'no');
    return streamSSE(c, async (sse) => {
      let onEnd: () => void = () => {};
      const finished = new Promise<void>((resolve) => (onEnd = resolve));
      onClose(c, sse, onEnd);
      const out = writer(sse, onEnd);
      const changed = new Set<string>();
      let timer: ReturnType<typeof setTimeout> | undefined;
      const flush = () => {
        timer = undefined;
        const data = JSON.stringify({ collections: [...changed] });
        changed.clear();
        out.then(() => sse.writeSSE({ event: 'changed', data }));
      };
      let unwatch = () => {};
      try {
        unwatch = hub.watch({
          changed: (contract) => {
            changed.add(contract);
            timer ??= setTimeout(flush, CHANGES_EVERY_MS);
          },
          end: () => onEnd(),
        });
      } catch {
        onEnd();
      }
      try {
        await finished;
      } finally {
        out.stop();
        clearTimeout(timer);
        unwatch();
        leave();
      }
    });
  }

  /**
   * Answers a stream, within the client's bound: `open` subscribes, handing rows to the
   * sink with their event ids, and says what was missed and where the stream starts.
   */
  async function stream(c: Context, open: (sink: WalletSink) => Promise<WalletSubscription>) {
    const leave = hold(c);
    if (leave instanceof Response) return leave;
    // Rows the hub finds before the stream is open wait for it.
    const early: [readonly EventRow[], readonly string[]][] = [];
    let onRows: (rows: readonly EventRow[], ids: readonly string[]) => void = (rows, ids) =>
      void early.push([rows, ids]);
    let ended = false;
    let onEnd: () => void = () => void (ended = true);
    let subscription: WalletSubscription;
    try {
      subscription = await open({
        send: (rows, ids) => onRows(rows, ids),
        end: () => onEnd(),
      });
    } catch (error) {
      leave();
      throw error;
    }
    c.header('x-accel-buffering', 'no');
    return streamSSE(c, async (sse) => {
      const finished = new Promise<void>((resolve) => (onEnd = resolve));
      if (ended) onEnd();
      onClose(c, sse, () => onEnd());
      // A client that reads nothing is let go.
      const out = writer(sse, onEnd);
      let unsent = 0;
      const write = (event: string, data: string, id: string) =>
        out.then(() => sse.writeSSE({ event, data, id }));
      const sendRows = (rows: readonly EventRow[], ids: readonly string[]) => {
        if (unsent + rows.length > MAX_UNSENT_ROWS) return onEnd();
        unsent += rows.length;
        rows.forEach((row, index) => write('change', JSON.stringify(row), ids[index]!));
        out.then(async () => void (unsent -= rows.length));
      };
      const { missed, missedIds, reset, at } = subscription;
      if (reset) write('reset', '{}', at);
      if (missed.length > 0) sendRows(missed, missedIds);
      else write('ready', JSON.stringify({ at }), at);
      for (const [rows, ids] of early.splice(0)) sendRows(rows, ids);
      onRows = sendRows;
      try {
        await finished;
      } finally {
        out.stop();
        subscription.stop();
        leave();
      }
    });
  }

  app.get(honoPath(API_ROUTES.liveCollection), (c) =>
    collectionStream(c, honoPath(API_ROUTES.liveCollection), undefined),
  );
  app.get(honoPath(API_ROUTES.liveToken), (c) => {
    const token = tokenParam.safeParse(c.req.param('tokenId'));
    if (!token.success) return badRequest(problemOf(token.error));
    return collectionStream(c, honoPath(API_ROUTES.liveToken), token.data);
  });
  app.get(honoPath(API_ROUTES.liveWallet), (c) => walletStream(c));
  app.get(honoPath(API_ROUTES.liveCollections), (c) => changesStream(c));
  return Object.assign(app, { streams: () => [...open_.values()].reduce((a, b) => a + b, 0) });
}
