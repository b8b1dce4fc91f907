import type pg from 'pg';

/**
 * A connection taken from a pool for a while: a transaction, or a lock held across an
 * upstream read. When PostgreSQL goes away meanwhile (restart, failover, stopped), the
 * client emits 'error', and an 'error' nobody listens to ends the process; so it is
 * listened to while held, remembered, and the connection is thrown away on release
 * rather than given back to the pool.
 */
export async function withClient<T>(
  pool: pg.Pool,
  work: (client: pg.PoolClient, lost: () => Error | undefined) => Promise<T>,
): Promise<T> {
  const client = await pool.connect();
  let failure: Error | undefined;
  const onError = (error: Error) => {
    failure ??= error;
  };
  client.on('error', onError);
  try {
    return await work(client, () => failure);
  } catch (error) {
    failure ??= isConnectionError(error) ? (error as Error) : undefined;
    throw error;
  } finally {
    client.off('error', onError);
    client.release(failure);
  }
}

/** The error of a connection that broke, as opposed to one a statement caused. */
function isConnectionError(error: unknown): boolean {
  const { code, message } = error as { code?: string; message?: string };
  // SQL errors carry a five-character SQLSTATE; broken sockets carry errno codes or none.
  return !(typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) && !!message;
}
