/**
 * One task at a time per key within this process; callers queue in arrival order. The
 * PostgreSQL engine adds a lock across servers on top of it, so that at most one of this
 * server's waiters holds a database connection for the lock.
 */
export function createKeyedMutex() {
  const tails = new Map<string, Promise<unknown>>();
  return {
    async run<T>(key: string, task: () => Promise<T>): Promise<T> {
      const before = tails.get(key) ?? Promise.resolve();
      const run = before.then(task, task);
      const tail = run.catch(() => {});
      tails.set(key, tail);
      try {
        return await run;
      } finally {
        if (tails.get(key) === tail) tails.delete(key);
      }
    },
    /** Whether a task for `key` runs or waits. */
    busy: (key: string) => tails.has(key),
  };
}
