import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createReadPools, type ReadPools } from '../../../src/server/database/read-pools';
import { createMonitoring } from '../../../src/server/monitoring';
import { createSampleService, generateDataset } from '../../../src/server/sample-service';
import { indexedProxy } from '../../support/indexed-proxy';
import {
  createDatabase,
  databaseUrl,
  startPostgres,
  type PostgresServer,
} from '../../support/postgres-server';
import { startStandby, type PostgresStandby } from '../../support/postgres-standby';
import { sampleUpstream } from '../../support/sample-upstream';
import type { Json } from '../../support/indexed-sample';

/**
 * Reads from a streaming replica: a primary and a hot standby made from it (pg_basebackup's
 * way, postgres-standby.ts), both from the server's own binaries. The query API's index
 * reads go to the standby, its writes and the indexer's to the primary; a standby whose
 * replay is paused lags, and answers say so; a killed standby leaves the primary to
 * answer until it is back; a request that waited for its own write reads what it wrote.
 */
const dataset = generateDataset({ seed: 11, contracts: 4, events: 3_000 });
const [first, second] = [...dataset.contracts].sort((a, b) => b.eventCount - a.eventCount);
const NOTE_LAG_MS = 1_000;
// Any wallet: its answer is read where the ranking's is, whatever it holds.
const WALLET = `0x${'ab'.repeat(32)}`;
const STATS = { bytes: 0, records: 0, lists: 0 };

let primary: PostgresServer;
let standby: PostgresStandby;
beforeAll(async () => {
  primary = await startPostgres();
  standby = await startStandby(primary);
}, 120_000);
afterAll(async () => {
  await standby?.stop();
  await primary?.stop();
});

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const close of cleanups.splice(0).reverse()) await close();
});

async function onStandby(database: string, sql: string) {
  const client = new pg.Client({ connectionString: standbyUrl(database) });
  await client.connect();
  try {
    return await client.query(sql);
  } finally {
    await client.end();
  }
}
const standbyUrl = (database: string) => databaseUrl(standby.url, database);

/** A new database on the primary (the standby replays it), the proxy over it, reading the standby. */
async function setUp() {
  const name = await createDatabase(primary.url);
  const url = databaseUrl(primary.url, name);
  const primaryPool = new pg.Pool({ connectionString: url });
  cleanups.push(() => primaryPool.end());
  const reads: ReadPools = createReadPools(primaryPool, {
    urls: [standbyUrl(name)],
    noteLagMs: NOTE_LAG_MS,
    skipLagMs: 600_000,
    checkEveryMs: 50,
  });
  cleanups.push(() => reads.close());
  const service = createSampleService({ apiKey: 'k', profile: 'deployed', dataset });
  const { proxy } = await indexedProxy({
    url,
    upstream: sampleUpstream(service),
    cleanups,
    settings: { headIntervalMs: 600_000 },
    proxy: { reads },
  });
  const get = async (path: string) => {
    const response = await proxy.app.request(path);
    return { status: response.status, body: (await response.json()) as Json };
  };
  const health = () => reads.states()[0]!.health;
  await vi.waitFor(() => expect(health()).toBe('up'), { timeout: 30_000 });
  // The contracts list (its first ranking waits for it), then one history whole.
  expect((await get('/api/collections')).status).toBe(200);
  await proxy.indexer.whole(first!.address).done;
  // The standby has replayed all of it: a fresh read may go there.
  await vi.waitFor(
    async () => expect((await reads.choose({ fresh: true })).replica).not.toBeNull(),
    {
      timeout: 30_000,
    },
  );
  return { name, url, reads, get, health, primaryPool, proxy };
}

describe('reads from a streaming replica', () => {
  it('reads the index on the standby, writes on the primary, and says when the standby lags', async () => {
    const { name, reads, get, health, primaryPool } = await setUp();
    const base = `/api/collections/${first!.address}`;
    const whole = (await get(base)).body;
    expect(whole.coverage.replicaLagSeconds).toBeNull();

    // Replay paused: a change on the primary is not seen, so the answer is the standby's.
    await onStandby(name, 'SELECT pg_wal_replay_pause()');
    await primaryPool.query(`UPDATE idx_contracts SET name = 'Renamed' WHERE address = $1`, [
      first!.address,
    ]);
    const before = reads.reads()[reads.states()[0]!.name]!;
    expect((await get(base)).body.name).toBe(whole.name);
    expect(reads.reads()[reads.states()[0]!.name]).toBeGreaterThan(before);

    // Past the bound, answers still come from it, and say how far behind it is.
    await vi.waitFor(() => expect(health()).toBe('lagging'), { timeout: 30_000 });
    const lagging = (await get(base)).body;
    expect(lagging.name).toBe(whole.name);
    expect(lagging.coverage.replicaLagSeconds).toBeGreaterThanOrEqual(NOTE_LAG_MS / 1000);
    expect(lagging.coverage.statement).toContain('Read from a replica');
    // Answers with no collection's coverage say it beside the server's faults.
    for (const path of ['/api/collections', `/api/wallets/${WALLET}`]) {
      const answer = (await get(path)).body;
      expect(answer.replicaLagSeconds, path).toBeGreaterThanOrEqual(NOTE_LAG_MS / 1000);
      expect(answer.faults.join(' '), path).toContain('Read from a replica');
    }

    // Replay resumed: caught up, the change shows and the note is gone.
    await onStandby(name, 'SELECT pg_wal_replay_resume()');
    await vi.waitFor(() => expect(health()).toBe('up'), { timeout: 30_000 });
    const caughtUp = (await get(base)).body;
    expect(caughtUp.name).toBe('Renamed');
    expect(caughtUp.coverage.replicaLagSeconds).toBeNull();
    expect(caughtUp.coverage.statement).not.toContain('replica');
    for (const path of ['/api/collections', `/api/wallets/${WALLET}`]) {
      const answer = (await get(path)).body;
      expect(answer.replicaLagSeconds, path).toBeNull();
      expect(answer.faults.join(' '), path).not.toContain('replica');
    }
  }, 120_000);

  it('reads what a request just wrote from the primary while the standby has not replayed it', async () => {
    const { name, reads, get } = await setUp();
    await onStandby(name, 'SELECT pg_wal_replay_pause()');
    try {
      // Not indexed at all: browsing reads its newest page from the service first.
      const primaryReads = reads.reads().primary!;
      const { status, body } = await get(`/api/collections/${second!.address}/events?limit=20`);
      expect(status).toBe(200);
      expect(body.events).toHaveLength(20);
      expect(reads.reads().primary).toBeGreaterThan(primaryReads);
      // The standby has none of it.
      const { rows } = await onStandby(
        name,
        `SELECT records::int AS n FROM idx_contracts WHERE address = '${second!.address}'`,
      );
      expect(rows[0].n).toBe(0);
    } finally {
      await onStandby(name, 'SELECT pg_wal_replay_resume()');
    }
  }, 120_000);

  it('answers from the primary while the standby is down, and reads it again once back', async () => {
    const { reads, get, health } = await setUp();
    const base = `/api/collections/${first!.address}/holders`;
    const expected = (await get(base)).body;
    expect(expected.holders.length).toBeGreaterThan(0);
    const replica = reads.states()[0]!.name;
    standby.kill();
    try {
      // At once: a read failing on the dead standby is read again from the primary.
      const during = await get(base);
      expect(during.status).toBe(200);
      expect(during.body.holders).toEqual(expected.holders);
      await vi.waitFor(() => expect(health()).toBe('down'), { timeout: 30_000 });
      const primaryReads = reads.reads().primary!;
      expect((await get(base)).body.holders).toEqual(expected.holders);
      expect(reads.reads().primary).toBeGreaterThan(primaryReads);
    } finally {
      await standby.start();
    }
    await vi.waitFor(() => expect(health()).toBe('up'), { timeout: 30_000 });
    const replicaReads = reads.reads()[replica]!;
    expect((await get(base)).body.holders).toEqual(expected.holders);
    expect(reads.reads()[replica]).toBeGreaterThan(replicaReads);
  }, 120_000);

  it('chooses a connection that is the standby, in recovery', async () => {
    const { reads } = await setUp();
    const choice = await reads.choose();
    expect(choice.replica).not.toBeNull();
    const { rows } = await choice.pool.query<{ recovery: boolean }>(
      'SELECT pg_is_in_recovery() AS recovery',
    );
    expect(rows[0]!.recovery).toBe(true);
  }, 120_000);

  it('shows each replica’s state, lag and reads in /metrics and /readyz', async () => {
    const { reads, get, proxy } = await setUp();
    expect(await proxy.checkReady()).toMatchObject({
      ready: true,
      replicas: [{ name: reads.states()[0]!.name, health: 'up', failure: null }],
    });
    await get(`/api/collections/${first!.address}`);
    const monitoring = createMonitoring({
      engine: { addUsage: async () => {}, usageSince: async () => 0, stats: async () => STATS },
      monthlyQuota: 0,
      reads,
    });
    const text = await monitoring.registry.metrics();
    const replica = reads.states()[0]!.name;
    expect(text).toContain(`database_replica_up{replica="${replica}"} 1`);
    expect(text).toMatch(new RegExp(`database_replica_lag_seconds\\{replica="${replica}"\\} \\d+`));
    const served = Number(
      new RegExp(`database_reads_total\\{to="${replica}"\\} (\\d+)`).exec(text)?.[1],
    );
    expect(served).toBe(reads.reads()[replica]);
    expect(served).toBeGreaterThan(0);
  }, 120_000);
});
