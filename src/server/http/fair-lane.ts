/**
 * At most `slots` requests at once, from every client together. A freed slot goes to the
 * waiting client with the fewest requests running, then to the one that `used` least of
 * the server lately (recent-use.ts), then to the first come: a client with one request
 * waits for one slot to free, never behind another client's queue of them, nor behind
 * clients that keep the server busier than it does.
 */
export function createFairLane(slots: number, used: (client: string) => number) {
  interface Waiter {
    client: string;
    grant: () => void;
  }
  let running = 0;
  const runningOf = new Map<string, number>();
  // In arrival order.
  const waiting = new Set<Waiter>();

  const enter = (client: string) => {
    running += 1;
    runningOf.set(client, (runningOf.get(client) ?? 0) + 1);
  };
  const leave = (client: string) => {
    running -= 1;
    const left = (runningOf.get(client) ?? 1) - 1;
    if (left === 0) runningOf.delete(client);
    else runningOf.set(client, left);
    grantNext();
  };
  const grantNext = () => {
    while (running < slots && waiting.size > 0) {
      let best: { waiter: Waiter; running: number; used: number } | undefined;
      for (const waiter of waiting) {
        const candidate = {
          waiter,
          running: runningOf.get(waiter.client) ?? 0,
          used: used(waiter.client),
        };
        if (
          !best ||
          candidate.running < best.running ||
          (candidate.running === best.running && candidate.used < best.used)
        ) {
          best = candidate;
        }
      }
      waiting.delete(best!.waiter);
      enter(best!.waiter.client);
      best!.waiter.grant();
    }
  };

  return {
    /**
     * Resolves with the function that gives the slot back once `client` may run, or with
     * undefined when `signal` aborts first (the client left, or waited too long).
     */
    turn(client: string, signal: AbortSignal): Promise<(() => void) | undefined> {
      let released = false;
      const release = () => {
        if (released) return;
        released = true;
        leave(client);
      };
      if (running < slots && waiting.size === 0) {
        enter(client);
        return Promise.resolve(release);
      }
      if (signal.aborted) return Promise.resolve(undefined);
      return new Promise((resolve) => {
        const waiter: Waiter = {
          client,
          grant: () => {
            signal.removeEventListener('abort', onAbort);
            resolve(release);
          },
        };
        const onAbort = () => {
          waiting.delete(waiter);
          resolve(undefined);
        };
        signal.addEventListener('abort', onAbort, { once: true });
        waiting.add(waiter);
      });
    },
    stats: () => ({ running, waiting: waiting.size }),
  };
}

export type FairLane = ReturnType<typeof createFairLane>;
