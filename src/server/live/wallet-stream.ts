import { z } from 'zod';
import type { EventRow } from '../../lib/answers';
import type { LiveHub, LivePosition, LiveSubscription } from './live-hub';

/**
 * A wallet's live stream, made of the hub's streams of the collections it changed hands
 * in most lately, each narrowed to rows from or to the wallet. A collection's rows are
 * numbered in the order they commit, but rows of different collections are not, so one
 * number cannot say where a wallet's stream is: its position is each collection's
 * (`idx_contracts.id` and the hub's position), all of them in each event id, and a
 * stream opened again goes on in each collection after its own.
 */

/**
 * Collections a wallet's stream follows (its most lately touched): each is a hub, which
 * reads that collection's head every head interval while open, so a wallet's page costs
 * at most what this many collection pages do (and shares them with those pages).
 */
export const WALLET_LIVE_COLLECTIONS = 10;

export type WalletPosition = ReadonlyMap<number, LivePosition>;

/** `w` and each collection's `id-after_floor`, dot-separated: `w12-1234_1751241600.15-…`. */
export function walletPositionId(position: WalletPosition): string {
  return `w${[...position].map(([id, at]) => `${id}-${at.after}_${at.floor}`).join('.')}`;
}

const ENTRY = /^(\d{1,9})-(\d{1,15})_(\d{1,12})$/;
const WALLET_ID = new RegExp(
  `^w(?:\\d{1,9}-\\d{1,15}_\\d{1,12}(?:\\.\\d{1,9}-\\d{1,15}_\\d{1,12}){0,${WALLET_LIVE_COLLECTIONS * 4}})?$`,
);

/** A wallet stream's id as the browser sends it back; null for anything else. */
export function parseWalletPosition(text: string | undefined): WalletPosition | null {
  if (text === undefined || !WALLET_ID.test(text)) return null;
  const entries = text
    .slice(1)
    .split('.')
    .filter(Boolean)
    .map((entry): [number, LivePosition] => {
      const [, id, after, floor] = ENTRY.exec(entry)!;
      return [Number(id), { after: Number(after), floor: Number(floor) }];
    });
  return new Map(entries);
}

/** A wallet's stream opened again where the `Last-Event-ID` header cannot be sent. */
export const walletLiveParams = z.strictObject({
  after: z
    .string()
    .regex(WALLET_ID, 'after must be the id of the last event the stream sent')
    .describe(
      'The id of the last event received: the stream goes on after it (as `Last-Event-ID`).',
    )
    .optional(),
});

/** Where a wallet's stream sends its rows, each with its event id. */
export interface WalletSink {
  send(rows: readonly EventRow[], ids: readonly string[]): void;
  end(): void;
}

export interface WalletSubscription {
  /** Rows missed since the position asked for, with their ids. */
  missed: EventRow[];
  missedIds: string[];
  /** A collection's position asked for was too far behind: the page loads again. */
  reset: boolean;
  /** The position it starts at, as an id. */
  at: string;
  stop(): void;
}

/**
 * Opens a wallet's stream at `from` (its last event id) or now: a subscription to the
 * hub of each of its latest collections (`WALLET_LIVE_COLLECTIONS`). A collection the
 * wallet first touches while the stream is open is not followed until it is opened
 * again (the page's next load).
 */
export async function subscribeWallet(
  hub: LiveHub,
  wallet: string,
  from: WalletPosition | null,
  sink: WalletSink,
): Promise<WalletSubscription> {
  const collections = await hub.walletCollections(wallet, WALLET_LIVE_COLLECTIONS);
  const position = new Map<number, LivePosition>();
  // Each row's id: the wallet's position with its collection's moved past the row.
  const idsOf = (id: number, rows: readonly EventRow[], at: LivePosition) =>
    rows.map((row, index) => {
      position.set(id, index === rows.length - 1 ? at : { ...at, after: Number(row.id) });
      return walletPositionId(position);
    });
  // Rows found while the other collections open wait, so that every id names them all.
  let early: [number, readonly EventRow[], LivePosition][] | null = [];
  const send = (id: number, rows: readonly EventRow[], at: LivePosition) => {
    if (early) early.push([id, rows, at]);
    else sink.send(rows, idsOf(id, rows, at));
  };
  const subscriptions: LiveSubscription[] = [];
  const stop = () => subscriptions.forEach((each) => each.stop());
  try {
    const opened = await Promise.all(
      collections.map(async ({ id, address }) => {
        const subscription = await hub.subscribe(address, from?.get(id) ?? null, {
          send: (rows, at) => send(id, rows, at),
          end: () => sink.end(),
          address: wallet,
        });
        subscriptions.push(subscription);
        return { id, subscription };
      }),
    );
    // Each collection starts where it was asked to, or where the hub is, before any row.
    for (const { id, subscription } of opened) {
      const asked = from?.get(id);
      position.set(id, subscription.missed.length > 0 && asked ? asked : subscription.position);
    }
    const missed: EventRow[] = [];
    const missedIds: string[] = [];
    for (const { id, subscription } of opened) {
      missed.push(...subscription.missed);
      missedIds.push(...idsOf(id, subscription.missed, subscription.position));
    }
    const waiting = early;
    early = null;
    for (const [id, rows, at] of waiting) {
      missed.push(...rows);
      missedIds.push(...idsOf(id, rows, at));
    }
    return {
      missed,
      missedIds,
      reset: opened.some(({ subscription }) => subscription.reset),
      at: walletPositionId(position),
      stop,
    };
  } catch (error) {
    stop();
    throw error;
  }
}
