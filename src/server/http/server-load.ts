/**
 * Each request's share of the server's time: the server's cores and database are shared
 * by the requests it runs, so over each moment of its life a request is given one n-th of
 * it when n run. A page that takes a second beside fifteen running exports cost the
 * server a sixteenth of a second. Measured by wall time alone, every kind looks costly on
 * a busy server, and a quiet client's pages would queue behind the very work that slowed
 * them. The shares of all requests add up to the time the server was busy.
 */
export function createLoadMeter(now: () => number) {
  let running = 0;
  // The integral of 1 / running over the time something ran, up to `at`.
  let shared = 0;
  let at = now();
  const advance = () => {
    const t = now();
    if (running > 0) shared += (t - at) / running;
    at = t;
  };
  return {
    /**
     * A request starts running; the function returned ends it (once) and gives its share
     * of the server's time in milliseconds.
     */
    start(): () => number {
      advance();
      const sharedAtStart = shared;
      running += 1;
      let share: number | undefined;
      return () => {
        if (share === undefined) {
          advance();
          running -= 1;
          share = shared - sharedAtStart;
        }
        return share;
      };
    },
    running: () => running,
  };
}
