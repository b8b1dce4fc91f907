import pg from 'pg';
import { afterEach, expect, it, vi } from 'vitest';
import { openPostgresEngine, type PostgresEngine } from '../../../src/server/store/postgres-engine';
import { startPostgres, type PostgresServer } from '../../support/postgres-server';

/**
 * PostgreSQL is a dependency that can fail. A connection held across an upstream read
 * (a list's lock in `exclusive`) that breaks must reject that task's caller, not end the
 * process with an 'error' nobody listened to.
 */
let server: PostgresServer | undefined;
let engine: PostgresEngine | undefined;
afterEach(async () => {
  vi.restoreAllMocks();
  await engine?.close().catch(() => {});
  await server?.stop();
});

it('survives PostgreSQL stopping while a list’s lock is held, and rejects that task', async () => {
  server = await startPostgres();
  engine = await openPostgresEngine({ connectionString: server.url });
  engine.pool.on('error', () => {});
  const connect = vi.spyOn(pg.Pool.prototype, 'connect');
  let running: () => void = () => {};
  const started = new Promise<void>((resolve) => (running = resolve));
  let finish: () => void = () => {};
  const task = engine.exclusive('/v1/events/0xabc', async () => {
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
  // Reads fail too, as rejections.
  await expect(engine.read('/v1/events/0xabc')).rejects.toThrow();
});
