import { AsyncLocalStorage } from 'node:async_hooks';

/** What a request holding a turn (client-share.ts) can do with it while it waits. */
export interface HeldTurn {
  /** Gives the turn back. */
  leave(): void;
  /** Waits for a turn again, in the same order as any request. */
  back(): Promise<void>;
}

const held = new AsyncLocalStorage<HeldTurn>();

/** Runs a request's handling with its turn, so that waits on the service can give it back. */
export const withTurn = <T>(turn: HeldTurn, handle: () => T): T => held.run(turn, handle);

/**
 * Waits for `work` (a read of the Token Events Service, seconds at its rate) without the
 * request's turn: turns bound the server's own work, and two requests waiting on the
 * service would otherwise hold every turn while the server sat idle. Outside a request,
 * or without turns, it just waits.
 */
export async function awayFromTurn<T>(work: () => Promise<T>): Promise<T> {
  const turn = held.getStore();
  if (!turn) return work();
  turn.leave();
  try {
    return await work();
  } finally {
    await turn.back();
  }
}
