import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import type { UpstreamConfig } from '../../../src/server/config';
import { migrate } from '../../../src/server/database/migrations';
import { resetDatabase, resetService } from '../../../src/server/database/reset-service';
import {
  claimService,
  claimUpstream,
  serviceIdentity,
} from '../../../src/server/database/service-identity';
import { usePostgresDatabases } from '../../support/postgres-databases';

/** A database holds one service's data: the first start claims it, another service is refused. */
const databases = usePostgresDatabases();
const cleanUp: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const step of cleanUp.splice(0).reverse()) await step();
});

async function newPool() {
  const { url, drop } = await databases.database({ empty: true });
  const pool = new pg.Pool({ connectionString: url });
  cleanUp.push(drop, () => pool.end());
  await migrate(pool);
  return { pool, url };
}

const sample = (seed = 1, profile: 'deployed' | 'documented' = 'deployed') =>
  serviceIdentity({ kind: 'sample', profile, seed, live: false });
const real = serviceIdentity({ kind: 'real', url: 'https://api.example.test/v0', apiKey: 'k' });
const ANCHOR = 1_767_225_600;

/** The refusal's message, checked to be one line naming both services and the way on. */
async function refusal(claim: Promise<unknown>): Promise<string> {
  const error = await claim.then(
    () => expect.fail('claimed'),
    (error: Error) => error,
  );
  expect(error.message).not.toContain('\n');
  expect(error.message).toMatch(/use another DATA_DIR \(or DATABASE_URL\)/);
  expect(error.message).toContain('`npm run index -- --reset`');
  return error.message;
}

describe('claimService', () => {
  it('accepts the same service again and keeps its first anchor', async () => {
    const { pool } = await newPool();
    expect(await claimService(pool, sample(), { anchor: ANCHOR })).toBe(ANCHOR);
    // A restart without SAMPLE_ANCHOR (an hour later, say) reads the stored timeline.
    expect(await claimService(pool, sample())).toBe(ANCHOR);
    expect(await claimService(pool, sample(), { anchor: ANCHOR })).toBe(ANCHOR);
  });

  it('fixes the default anchor, the start time rounded to the hour, at the first claim', async () => {
    const { pool } = await newPool();
    const before = Math.floor(Date.now() / 1000);
    const anchor = await claimService(pool, sample());
    expect(anchor! % 3600).toBe(0);
    expect(before - anchor!).toBeLessThan(3600);
    expect(await claimService(pool, sample())).toBe(anchor);
  });

  it('keeps no anchor for the real service', async () => {
    const { pool } = await newPool();
    expect(await claimService(pool, real)).toBeUndefined();
    expect(await claimService(pool, real)).toBeUndefined();
    const { rows } = await pool.query('SELECT service, description, sample_anchor FROM log_source');
    expect(rows).toEqual([
      {
        service: 'https://api.example.test/v0',
        description: 'the Token Events Service at https://api.example.test/v0',
        sample_anchor: null,
      },
    ]);
  });

  it('refuses another sample seed or profile, naming both', async () => {
    const { pool } = await newPool();
    await claimService(pool, sample(1), { anchor: ANCHOR });
    expect(await refusal(claimService(pool, sample(2)))).toBe(
      `this database holds data from the embedded sample service (deployed profile, seed 1) ` +
        `with SAMPLE_ANCHOR=${ANCHOR}, not from the embedded sample service (deployed profile, ` +
        'seed 2): use another DATA_DIR (or DATABASE_URL), or empty this one with ' +
        '`npm run index -- --reset`',
    );
    expect(await refusal(claimService(pool, sample(1, 'documented')))).toContain(
      'not from the embedded sample service (documented profile, seed 1)',
    );
  });

  it('refuses the real service on a sample’s database, and the other way round', async () => {
    const first = await newPool();
    await claimService(first.pool, sample(), { anchor: ANCHOR });
    const message = await refusal(claimService(first.pool, real));
    expect(message).toContain('from the embedded sample service (deployed profile, seed 1)');
    expect(message).toContain('not from the Token Events Service at https://api.example.test/v0');
    const second = await newPool();
    await claimService(second.pool, real);
    expect(await refusal(claimService(second.pool, sample()))).toContain(
      'holds data from the Token Events Service at https://api.example.test/v0, not from',
    );
  });

  it('refuses an explicit anchor other than the stored one', async () => {
    const { pool } = await newPool();
    await claimService(pool, sample(), { anchor: ANCHOR });
    expect(await refusal(claimService(pool, sample(), { anchor: ANCHOR + 3600 }))).toContain(
      `with SAMPLE_ANCHOR=${ANCHOR}, not from the embedded sample service (deployed profile, ` +
        `seed 1) with SAMPLE_ANCHOR=${ANCHOR + 3600}:`,
    );
  });

  it('adopts the current service for a database from before services were recorded', async () => {
    const { pool } = await newPool();
    await pool.query("INSERT INTO idx_contracts (address) VALUES ('0x1')");
    const lines: string[] = [];
    expect(await claimService(pool, real, { log: (line) => lines.push(line) })).toBeUndefined();
    expect(lines).toEqual([
      'The database holds data from before services were recorded: it is taken to come from ' +
        'the Token Events Service at https://api.example.test/v0.',
    ]);
    await refusal(claimService(pool, sample()));
    // A new database is claimed without a word.
    const fresh = await newPool();
    await claimService(fresh.pool, real, { log: (line) => lines.push(line) });
    expect(lines).toHaveLength(1);
  });

  it('lets one of two services starting together claim a new database, and refuses the other', async () => {
    const { pool } = await newPool();
    const [first, second] = await Promise.all([
      claimService(pool, sample()),
      claimService(pool, sample()),
    ]);
    expect(second).toBe(first);
    const other = await newPool();
    const outcomes = await Promise.allSettled([
      claimService(other.pool, sample(1)),
      claimService(other.pool, sample(2)),
    ]);
    expect(outcomes.map((outcome) => outcome.status).sort()).toEqual(['fulfilled', 'rejected']);
    const failed = outcomes.find((outcome) => outcome.status === 'rejected');
    expect(String(failed?.reason)).toMatch(/this database holds data from/);
  });

  it('gives the sample service the claimed anchor through its configuration', async () => {
    const { pool } = await newPool();
    const config: UpstreamConfig = { kind: 'sample', profile: 'deployed', seed: 1, live: false };
    await claimUpstream(pool, { ...config, anchor: ANCHOR });
    expect(await claimUpstream(pool, config)).toEqual({ ...config, anchor: ANCHOR });
    const realConfig: UpstreamConfig = { kind: 'real', url: 'https://x.test', apiKey: 'k' };
    await expect(claimUpstream(pool, realConfig)).rejects.toThrow(/not from the Token Events/);
  });
});

describe('npm run index -- --reset', () => {
  it('empties the log, the index and the service, so another service is accepted', async () => {
    const { pool } = await newPool();
    await claimService(pool, sample(), { anchor: ANCHOR });
    await pool.query("INSERT INTO idx_contracts (address) VALUES ('0x1'), ('0x2')");
    await pool.query("INSERT INTO log_lists (path, stable) VALUES ('/v1/contracts', true)");
    await pool.query(
      "INSERT INTO log_records (list_id, key, ts, body) VALUES (1, '\\x01', 5, '\\x7b7d')",
    );
    const lines: string[] = [];
    await resetService(pool, (line) => lines.push(line));
    expect(lines[0]).toBe(
      'Deleting 1 records in 1 lists, the index of 2 contracts (0 changes of hands) and the ' +
        'service they came from (the embedded sample service (deployed profile, seed 1)).',
    );
    for (const table of ['log_records', 'log_lists', 'log_source', 'idx_contracts']) {
      const { rows } = await pool.query<{ n: string }>(`SELECT count(*) AS n FROM ${table}`);
      expect(rows[0]!.n, table).toBe('0');
    }
    expect(await claimService(pool, real)).toBeUndefined();
    // Identities start again at 1.
    const { rows } = await pool.query<{ id: number }>(
      "INSERT INTO idx_contracts (address) VALUES ('0x3') RETURNING id",
    );
    expect(rows[0]!.id).toBe(1);
  });

  it('opens the configured database itself, even one never opened before', async () => {
    const { url, drop } = await databases.database({ empty: true });
    cleanUp.push(drop);
    const lines: string[] = [];
    await resetDatabase({ kind: 'external', url }, (line) => lines.push(line));
    expect(lines).toEqual([
      'Deleting 0 records in 0 lists, the index of 0 contracts (0 changes of hands) and the ' +
        'service they came from (none recorded).',
      'Done: the next start takes this database for its own service.',
    ]);
  });
});
