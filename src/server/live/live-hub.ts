import type pg from 'pg';
import type { EventRow } from '../../lib/answers';
import { CHANGES_CHANNEL } from '../index/change-notice';
import { EVENT_COLUMNS, EVENT_FROM, eventRow, type EventRecord } from '../index/event-rows';
import { lockContract } from '../index/ingest';
import { addressBytes } from '../index/sql';

/**
 * Live pages' one reader per collection. While at least one stream of a collection is
 * open, its hub asks for the collection's head every head interval (the log reads the
 * service only when the head is due, so a thousand streams cost what one does, on every
 * server sharing the database) and reads the index rows that arrived since, once, for
 * every stream. It also reads at once when PostgreSQL says new rows of the collection
 * were committed (change-notice.ts: a visitor's or the background's head read, another
 * server's), so a row reaches the pages as soon as it is readable.
 *
 * New rows are those numbered past the stream's position (`idx_changes.id`: a contract's
 * rows are numbered in the order they commit, one writer at a time per contract, see
 * index/ingest.ts `lockContract`; rows of one page go in the page's order, newest first) and no older than the collection's newest change when
 * the stream started (its floor): a walk reading the history deeper adds older rows,
 * which are no news. A position is the last row's number and the floor; it is the
 * stream's event id, so a stream dropped and opened again (on this server or another)
 * goes on after it without a row lost or sent twice.
 */

export interface LivePosition {
  /** The last row sent (its `id`). */
  after: number;
  /** Unix seconds: rows older than this are history read deeper, not news. */
  floor: number;
}

export interface LiveSubscriber {
  /** New rows, oldest first, and the position after the last of them. */
  send(rows: readonly EventRow[], position: LivePosition): void;
  /** The hub closes (the server stops). */
  end(): void;
  /** Only this token's rows (a token's page). */
  tokenId?: string;
  /** Only rows from or to this address (a wallet's page). */
  address?: string;
}

/** A row the subscriber asked for: its token's, its wallet's, or any. */
const wants = (subscriber: LiveSubscriber, row: EventRow) =>
  (subscriber.tokenId === undefined || row.tokenId === subscriber.tokenId) &&
  (subscriber.address === undefined ||
    row.from === subscriber.address ||
    row.to === subscriber.address);

/** Told of every collection with new rows (`watch`). */
export interface LiveWatcher {
  changed(contract: string): void;
  /** The hub closes (the server stops). */
  end(): void;
}

export interface LiveSubscription {
  /** Where the stream starts; `reset` when the position asked for was too far behind. */
  position: LivePosition;
  /** Rows between the position asked for and the hub's, sent first. */
  missed: EventRow[];
  reset: boolean;
  stop(): void;
}

export interface LiveHubOptions {
  /** The primary: rows are read as soon as they commit, and NOTIFY is heard there. */
  pool: pg.Pool;
  /** Reads the collection's head when due (indexer.head); never throws. */
  head: (contract: string) => Promise<void>;
  intervalMs: number;
  now?: () => number;
  /** Rows read at a time, and the most a stream opened again may have missed (`LIVE_BATCH`). */
  batch?: number;
}

/** Rows read at a time; a stream further behind than this many is told to load again. */
export const LIVE_BATCH = 500;

const SELECT_AFTER = `SELECT ${EVENT_COLUMNS} FROM ${EVENT_FROM}
  WHERE c.contract_id = $1 AND c.ts >= $2 AND c.id > $3 AND ($4::bigint IS NULL OR c.id <= $4)
  ORDER BY c.id LIMIT $5`;

interface Hub {
  contract: string;
  contractId: number | null;
  position: LivePosition;
  subscribers: Map<LiveSubscriber, LivePosition>;
  timer: ReturnType<typeof setInterval>;
  /** Reads of the index, one after another (a new stream's catch-up among them). */
  queue: Promise<unknown>;
  /** A read is queued and has not started: another notice needs no other read. */
  pending: boolean;
  ready: Promise<void>;
}

export function createLiveHub(options: LiveHubOptions) {
  const { pool, head, intervalMs, now = Date.now, batch = LIVE_BATCH } = options;
  const hubs = new Map<string, Hub>();
  let listener: pg.PoolClient | null = null;
  let listening: Promise<void> | null = null;
  let closed = false;
  const counts = { heads: 0, reads: 0 };
  /** Told of every collection's new rows (the ranking's stream): they read nothing. */
  const watchers = new Set<LiveWatcher>();
  const needed = () => hubs.size > 0 || watchers.size > 0;

  /** One session hears every collection's notices while any stream is open. */
  const listen = () =>
    (listening ??= pool.connect().then(
      async (client) => {
        client.on('notification', (message) => {
          if (!message.payload) return;
          const hub = hubs.get(message.payload);
          if (hub) read(hub);
          for (const watcher of watchers) watcher.changed(message.payload);
        });
        // A session that fails is given back; the next tick listens again, and ticks
        // read meanwhile.
        client.on('error', () => dropListener(client, true));
        try {
          await client.query(`LISTEN ${CHANGES_CHANNEL}`);
          listener = client;
          if (closed || !needed()) dropListener(client, false);
        } catch {
          dropListener(client, true);
        }
      },
      () => {
        listening = null;
      },
    ));

  function dropListener(client: pg.PoolClient, broken: boolean) {
    if (listener === client) listener = null;
    listening = null;
    client.removeAllListeners('notification');
    // Hubs listen again at their next tick; watchers have no tick.
    if (broken && watchers.size > 0 && !closed)
      setTimeout(() => void listen(), intervalMs).unref?.();
    if (broken) client.release(true);
    else
      void client.query(`UNLISTEN ${CHANGES_CHANNEL}`).then(
        () => client.release(),
        () => client.release(true),
      );
  }

  const enqueue = <T>(hub: Hub, work: () => Promise<T>): Promise<T> => {
    const done = hub.queue.then(work);
    hub.queue = done.catch(() => undefined);
    return done;
  };

  async function rowsAfter(hub: Hub, from: LivePosition, upTo: number | null, limit: number) {
    if (hub.contractId === null) return [];
    const { rows } = await pool.query<EventRecord>(SELECT_AFTER, [
      hub.contractId,
      from.floor,
      from.after,
      upTo,
      limit,
    ]);
    return rows.map(eventRow);
  }

  /** Reads the rows past the hub's position and gives each stream those it lacks. */
  function read(hub: Hub): void {
    if (hub.pending) return;
    hub.pending = true;
    void enqueue(hub, async () => {
      hub.pending = false;
      for (;;) {
        counts.reads += 1;
        const rows = await rowsAfter(hub, hub.position, null, batch).catch(() => []);
        if (rows.length === 0) return;
        hub.position = { ...hub.position, after: Number(rows.at(-1)!.id) };
        for (const [subscriber, at] of hub.subscribers) deliver(subscriber, at, rows);
        if (rows.length < batch) return;
      }
    });
  }

  function deliver(subscriber: LiveSubscriber, at: LivePosition, rows: readonly EventRow[]) {
    const fresh = rows.filter(
      (row) => Number(row.id) > at.after && row.timestamp >= at.floor && wants(subscriber, row),
    );
    at.after = Math.max(at.after, Number(rows.at(-1)!.id));
    if (fresh.length > 0) subscriber.send(fresh, { ...at });
  }

  function open(contract: string): Hub {
    const found = hubs.get(contract);
    if (found) return found;
    const hub: Hub = {
      contract,
      contractId: null,
      position: { after: 0, floor: Math.floor(now() / 1000) },
      subscribers: new Map(),
      timer: setInterval(() => void tick(hub), intervalMs),
      queue: Promise.resolve(),
      pending: false,
      ready: Promise.resolve(),
    };
    hub.timer.unref?.();
    hub.ready = start(hub);
    hub.queue = hub.ready.catch(() => undefined);
    hubs.set(contract, hub);
    return hub;
  }

  /**
   * The hub's floor (the collection's newest change now) and position: the last row
   * numbered so far, read holding the collection's ingest lock, so that no page of it is
   * half written with smaller numbers; every later row of it is numbered past it.
   */
  async function start(hub: Hub) {
    void listen();
    const client = await pool.connect();
    try {
      await client.query('BEGIN');
      const { rows } = await client.query<{ id: number; newest: string | null }>(
        'SELECT id, newest_ts AS newest FROM idx_contracts WHERE address = $1',
        [hub.contract],
      );
      const row = rows[0];
      if (row) {
        await lockContract(client, row.id);
        const last = await client.query<{ id: string | null }>(
          'SELECT max(id) AS id FROM idx_changes',
        );
        hub.contractId = row.id;
        hub.position = {
          after: Number(last.rows[0]?.id ?? 0),
          floor: row.newest === null ? hub.position.floor : Number(row.newest),
        };
      }
      await client.query('COMMIT');
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    } finally {
      client.release();
    }
  }

  async function tick(hub: Hub) {
    if (!listener) void listen();
    counts.heads += 1;
    await head(hub.contract);
    if (hub.contractId === null) {
      // A collection the index had not met when the stream opened: met now, perhaps.
      await enqueue(hub, () => start(hub)).catch(() => undefined);
    }
    read(hub);
  }

  function close(hub: Hub) {
    clearInterval(hub.timer);
    hubs.delete(hub.contract);
    if (!needed() && listener) dropListener(listener, false);
  }

  return {
    /**
     * Starts a stream of `contract` at `from` (a stream opened again: its last event id),
     * or at the newest change now. The rows it missed come back with the subscription;
     * later ones go to `subscriber.send`.
     */
    async subscribe(
      contract: string,
      from: LivePosition | null,
      subscriber: LiveSubscriber,
    ): Promise<LiveSubscription> {
      if (closed) throw new Error('The live hub is closed.');
      const hub = open(contract);
      const stop = () => {
        if (!hub.subscribers.delete(subscriber)) return;
        if (hub.subscribers.size === 0 && hubs.get(contract) === hub) close(hub);
      };
      try {
        await hub.ready;
        return await enqueue(hub, async () => {
          let position = { ...hub.position };
          let missed: EventRow[] = [];
          let reset = false;
          if (from && from.after < hub.position.after) {
            const rows = await rowsAfter(hub, from, hub.position.after, batch + 1);
            reset = rows.length > batch;
            if (!reset) {
              missed = rows.filter((row) => wants(subscriber, row));
              position = { after: hub.position.after, floor: from.floor };
            }
          } else if (from) {
            position = { after: from.after, floor: from.floor };
          }
          hub.subscribers.set(subscriber, { ...position });
          return { position, missed, reset, stop };
        });
      } catch (error) {
        // Nobody else may be waiting on this hub: it must not tick for nobody.
        if (hub.subscribers.size === 0 && hubs.get(contract) === hub) close(hub);
        throw error;
      }
    },
    /**
     * The collections a wallet changed hands in most lately, at most `limit`, newest
     * first (a wallet's stream follows these: see wallet-stream.ts).
     */
    async walletCollections(
      wallet: string,
      limit: number,
    ): Promise<{ id: number; address: string }[]> {
      const { rows } = await pool.query<{ id: number; address: string }>(
        `SELECT ic.id, ic.address FROM (
           SELECT contract_id, max(ts) AS last FROM (
             SELECT contract_id, ts FROM idx_changes WHERE from_addr = $1
             UNION ALL SELECT contract_id, ts FROM idx_changes WHERE to_addr = $1) e
           GROUP BY contract_id ORDER BY last DESC LIMIT $2) a
         JOIN idx_contracts ic ON ic.id = a.contract_id ORDER BY a.last DESC`,
        [addressBytes(wallet), limit],
      );
      return rows;
    },
    /**
     * Tells `watcher` of each collection with new rows committed, whoever read them, until
     * the returned function is called. It reads no head and no row: the ranking's stream.
     */
    watch(watcher: LiveWatcher): () => void {
      if (closed) throw new Error('The live hub is closed.');
      watchers.add(watcher);
      void listen();
      return () => {
        watchers.delete(watcher);
        if (!needed() && listener) dropListener(listener, false);
      };
    },
    /** Ends every stream (the server stops). */
    close() {
      closed = true;
      for (const watcher of watchers) watcher.end();
      watchers.clear();
      if (listener) dropListener(listener, false);
      for (const hub of [...hubs.values()]) {
        for (const subscriber of hub.subscribers.keys()) subscriber.end();
        hub.subscribers.clear();
        close(hub);
      }
    },
    stats: () => ({
      collections: hubs.size,
      streams: [...hubs.values()].reduce((sum, hub) => sum + hub.subscribers.size, 0),
      /** Head reads asked for (one per collection per interval), index reads made. */
      ...counts,
    }),
  };
}

export type LiveHub = ReturnType<typeof createLiveHub>;
