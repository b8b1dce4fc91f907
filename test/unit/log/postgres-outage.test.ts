import pg from 'pg';
import { afterEach, expect, it, vi } from 'vitest';
import { openRecordLog, type RecordLog } from '../../../src/server/log/record-log';
import { startPostgres, type PostgresServer } from '../../support/postgres-server';

/**
 * PostgreSQL is a dependency that can fail. A connection held across an upstream read
 * (a list's lock in `exclusive`) that breaks must reject that task's caller, not end the
 * process with an 'error' nobody listened to.
 */
let server: PostgresServer | undefined;
let log: RecordLog | undefined;
afterEach(async () => {
  vi.restoreAllMocks();
  await log?.close().catch(() => {});
  await server?.stop();
});

it('survives PostgreSQL stopping while a list’s lock is held, and rejects that task', async () => {
  server = await startPostgres();
  log = await openRecordLog({ connectionString: server.url });
  const list = await log.list('/v1/events/0xabc', false);
  const connect = vi.spyOn(pg.Pool.prototype, 'connect');
  let running: () => void = () => {};
  const started = new Promise<void>((resolve) => (running = resolve));
  let finish: () => void = () => {};
  const task = log.exclusive(list.path, async () => {
    running();
    await new Promise<void>((resolve) => (finish = resolve));
    return 'read';
  });
  await started;
  // The connection holding the lock: the only one taken from a pool since the spy.
  expect(connect).toHaveBeenCalledTimes(1);
  const held = (await connect.mock.results[0]!.value) as pg.PoolClient;
  const ended = new Promise((resolve) => held.once('end', resolve));
  server.kill();
  // The held connection sees its end while the task still runs.
  await ended;
  finish();
  await expect(task).rejects.toThrow(/database connection holding the lock .* failed/);
  // Reads and writes fail too, as rejections.
  await expect(log.state(list.path)).rejects.toThrow();
  await expect(log.commit(list, [], { complete: true })).rejects.toThrow();
});
