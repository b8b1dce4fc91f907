import type pg from 'pg';

/**
 * One session of the lock pool that holds every list lock this server takes without
 * waiting (`pg_try_advisory_lock`). A list's lock is held across its upstream read, and
 * that read waits in the upstream gate (its turns shared between clients, its queue's
 * bounds); were every lock a connection of its own, requests for more lists than the pool
 * has connections would queue for one in arrival order before ever reaching the gate, and
 * one client's flood would hold everyone else's back. Only a lock that another server
 * holds is waited for on a connection of its own (`exclusive` in record-log.ts).
 */
export function createLockSession(locks: pg.Pool, salt: number) {
  interface Session {
    client: pg.PoolClient;
    ended: boolean;
    /** Its statements, one at a time (pg refuses a query while another runs). */
    tail: Promise<unknown>;
    /** Why its locks are gone. */
    lost?: Error;
  }
  let current: Session | undefined;
  let connecting: Promise<Session> | undefined;
  let closed = false;

  const query = (session: Session, sql: string, path: string) => {
    const result = session.tail.then(() =>
      session.client.query<{ taken?: boolean }>(sql, [salt, path]),
    );
    session.tail = result.catch(() => undefined);
    return result;
  };

  const end = (session: Session, error?: Error) => {
    if (session.ended) return;
    session.ended = true;
    session.lost ??= error;
    if (current === session) current = undefined;
    // A failed session is thrown away, not given back to the pool: its locks go with it.
    session.client.release(error);
  };

  const open = () =>
    (connecting ??= locks
      .connect()
      .then((client) => {
        if (closed) {
          // Closed while it connected: given back at once, or the pool would never end.
          client.release();
          throw new Error('the record log is closed');
        }
        const session: Session = { client, ended: false, tail: Promise.resolve() };
        // An 'error' nobody listens to would end the process.
        client.on('error', (error: Error) => end(session, error));
        current = session;
        return session;
      })
      .finally(() => (connecting = undefined)));

  return {
    /**
     * Takes the list's lock unless another server holds it (then null). Its release
     * resolves to why the lock was lost meanwhile, if it was (the connection failed).
     */
    async take(path: string): Promise<(() => Promise<Error | undefined>) | null> {
      const session = current ?? (await open());
      let taken: boolean;
      try {
        const { rows } = await query(
          session,
          'SELECT pg_try_advisory_lock($1, hashtext($2)) AS taken',
          path,
        );
        taken = rows[0]?.taken === true;
      } catch (error) {
        end(session, error as Error);
        throw error;
      }
      if (!taken) return null;
      return async () => {
        if (!session.lost) {
          const failed = await query(
            session,
            'SELECT pg_advisory_unlock($1, hashtext($2))',
            path,
          ).then(
            () => undefined,
            (error: Error) => error,
          );
          if (failed) end(session, failed);
        }
        return session.lost;
      };
    },
    close() {
      closed = true;
      if (current) end(current);
    },
  };
}
