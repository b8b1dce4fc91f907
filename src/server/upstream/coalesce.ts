interface Flight<T> {
  result: Promise<T>;
  waiting: number;
  controller: AbortController;
}

/**
 * Concurrent identical requests share one run of the task. The run is cancelled only
 * when every caller waiting for it has gone, so one visitor closing a tab cannot fail
 * the others, and a queue of abandoned requests does not spend the upstream's budget.
 */
export function createCoalescer<T>() {
  const flights = new Map<string, Flight<T>>();
  const forget = (key: string, flight: Flight<T>) => {
    if (flights.get(key) === flight) flights.delete(key);
  };

  return {
    async run(
      key: string,
      task: (signal: AbortSignal) => Promise<T>,
      signal?: AbortSignal,
    ): Promise<{ value: T; joined: boolean }> {
      let flight = flights.get(key);
      const joined = flight !== undefined;
      if (!flight) {
        const controller = new AbortController();
        const started: Flight<T> = {
          result: task(controller.signal).finally(() => forget(key, started)),
          waiting: 0,
          controller,
        };
        flight = started;
        flights.set(key, flight);
      }
      const current = flight;
      current.waiting += 1;
      const leave = () => {
        current.waiting -= 1;
        if (current.waiting > 0) return;
        // A caller arriving now must start afresh rather than join a cancelled run.
        forget(key, current);
        current.controller.abort(new Error('every caller has gone'));
      };
      // A caller gone before it joined leaves at once (its abort event has already fired).
      if (signal?.aborted) leave();
      else signal?.addEventListener('abort', leave, { once: true });
      try {
        return { value: await current.result, joined };
      } finally {
        signal?.removeEventListener('abort', leave);
      }
    },

    inFlight: () => flights.size,
  };
}
