import type pg from 'pg';
import { ASSUMED_CURRENCY } from '../../lib/price';
import { HOLDER_MOMENTS_SQL } from '../index/holder-moments';
import { hourlyRows } from '../index/hourly';
import { mintFactsOf } from '../index/mint-facts';
import { INDEX_SCHEMA_SQL } from '../index/index-schema';
import { washFlagsOf } from '../index/wash-flags';
import { LOG_SCHEMA_SQL } from '../log/log-schema';
import { WEBHOOK_SCHEMA_SQL } from '../webhooks/webhook-schema';
import { withClient } from './held-client';
import { upgradeStore } from './store-upgrade';
import { HOUR } from '../../lib/utc';

/**
 * The database's schema, as an ordered list of steps. A database records the steps it
 * has had in `schema_version`; opening it applies the ones it lacks, in order, in one
 * transaction under an advisory lock (several servers may start at once: one applies,
 * the others wait and find them done). A database that has had steps this server does
 * not know was made by a newer version, and is refused rather than misread.
 *
 * To change the schema, append a step with the next number; never edit one that has
 * shipped (databases out there have had it already). Each step's SQL runs as one
 * multi-statement query.
 */
export interface Migration {
  version: number;
  name: string;
  sql: string;
  /** Work after the SQL that SQL alone cannot do, in the same transaction. */
  run?: (client: pg.PoolClient) => Promise<void>;
}

export const migrations: Migration[] = [
  {
    version: 1,
    name: 'event store: lists, chunks, settings, upstream usage and rate budget',
    // IF NOT EXISTS: databases made before schema versions already have these tables.
    sql: `
CREATE TABLE IF NOT EXISTS store_lists (
  list text PRIMARY KEY,
  generation bigint NOT NULL,
  first bigint NOT NULL,
  next bigint NOT NULL,
  complete boolean NOT NULL,
  frontier text,
  head_checked_at bigint NOT NULL,
  fetched_at bigint NOT NULL,
  bytes bigint NOT NULL,
  used_at bigint NOT NULL
);
CREATE INDEX IF NOT EXISTS store_lists_used ON store_lists (used_at);
CREATE TABLE IF NOT EXISTS store_chunks (
  list text NOT NULL,
  generation bigint NOT NULL,
  first bigint NOT NULL,
  data bytea NOT NULL,
  count integer NOT NULL,
  bytes integer NOT NULL,
  PRIMARY KEY (list, generation, first)
);
CREATE TABLE IF NOT EXISTS store_settings (name text PRIMARY KEY, value text NOT NULL);
CREATE TABLE IF NOT EXISTS upstream_usage (hour bigint PRIMARY KEY, requests bigint NOT NULL);
CREATE TABLE IF NOT EXISTS upstream_budget (
  key varchar(255) PRIMARY KEY,
  points integer NOT NULL DEFAULT 0,
  expire bigint
);
`,
  },
  {
    version: 2,
    name: 'event index: contracts, changes of hands, tokens, hourly figures',
    sql: INDEX_SCHEMA_SQL,
  },
  {
    version: 3,
    name: 'event store: a checksum per chunk; the identities of stable lists’ records',
    // Chunks written before have none (NULL): they are still checked for structure.
    // Stable lists (the contracts list, a token's events) are told new records from stored
    // ones by an index of their identities rather than by reading every stored record:
    // copies stored before have none, so they are made due to be read again.
    sql: `
ALTER TABLE store_chunks ADD COLUMN IF NOT EXISTS checksum integer;
CREATE TABLE IF NOT EXISTS store_keys (
  list text NOT NULL,
  generation bigint NOT NULL,
  key bytea NOT NULL,
  PRIMARY KEY (list, generation, key)
);
UPDATE store_lists SET fetched_at = 0
 WHERE list = '/v1/contracts' OR list ~ '^/v1/events/[^/]+/[^/]+$';
`,
  },
  {
    version: 4,
    name: 'event index: wash-trade flags stored on each sale, and the flagged part of each hour',
    // `wash`: a bitmask of the rules that fired (WASH_BITS in ../index/wash-flags.ts), 0 for
    // a sale not flagged and for every other kind. The hours are rebuilt from the rows.
    sql: `
ALTER TABLE idx_changes ADD COLUMN wash smallint NOT NULL DEFAULT 0;
ALTER TABLE idx_hourly ADD COLUMN wash_events integer NOT NULL DEFAULT 0,
  ADD COLUMN wash_volume numeric(78, 0) NOT NULL DEFAULT 0;
-- A token's sales in time order with the addresses the rules compare: each rule reads
-- this index alone, not every change of the token.
CREATE INDEX idx_changes_token_sales ON idx_changes (contract_id, token_id, ts)
  INCLUDE (id, from_addr, to_addr) WHERE has_sale;
UPDATE idx_changes u SET wash = f.wash FROM (${washFlagsOf('idx_changes c')}) f
 WHERE u.id = f.id AND f.wash <> 0;
DELETE FROM idx_hourly;
${hourlyRows('idx_changes c', 'true')};
`,
  },
  {
    version: 5,
    name: 'event index: each token’s first mint (time, receiver) and first sale after it',
    // Kept at ingest (../index/mint-facts.ts) so the market reads the tokens minted in a
    // span as one range; every token indexed before is filled here by the same statement.
    sql: `
ALTER TABLE idx_tokens ADD COLUMN minter bytea, ADD COLUMN minted_at bigint,
  ADD COLUMN first_sale_at bigint, ADD COLUMN first_clean_sale_at bigint;
UPDATE idx_tokens t SET minter = f.minter, minted_at = f.minted_at,
  first_sale_at = f.first_sale_at, first_clean_sale_at = f.first_clean_sale_at
FROM (${mintFactsOf('idx_tokens t0')}) f
WHERE t.token_id = f.token_id AND t.contract_id = f.contract_id AND f.minted_at IS NOT NULL;
CREATE INDEX idx_tokens_minted ON idx_tokens (contract_id, minted_at)
  INCLUDE (minter, owner, burned, first_sale_at, first_clean_sale_at) WHERE minted_at IS NOT NULL;
`,
  },
  {
    version: 6,
    name: 'record log: every record the service sent, kept for good, and the service it came from',
    // The store's lists (chunks, generations, an LRU) become the log's: see store-upgrade.ts.
    sql: LOG_SCHEMA_SQL,
    run: upgradeStore,
  },
  {
    version: 7,
    name: 'event index: changes of hands by transaction',
    // A transaction's page and the lookup find its changes by hash, across collections.
    sql: 'CREATE INDEX idx_changes_tx ON idx_changes (tx);',
  },
  {
    version: 8,
    name: 'event index: a sale naming no currency is ETH, marked assumed',
    // Such sales had the empty currency and were a currency of their own; they become
    // ETH (so every figure, sort and result counts them as ETH) with `currency_assumed`,
    // and the hours holding them are made again from the rows.
    sql: `
ALTER TABLE idx_changes ADD COLUMN currency_assumed boolean NOT NULL DEFAULT false;
UPDATE idx_changes SET currency = '\\x${ASSUMED_CURRENCY.address.slice(2)}'::bytea,
  currency_assumed = true
 WHERE has_sale AND currency = '\\x'::bytea;
-- The sales naming no currency, counted per contract and read by the filter for them.
CREATE INDEX idx_changes_assumed ON idx_changes (contract_id, ts) WHERE currency_assumed;
CREATE TEMP TABLE assumed_hours ON COMMIT DROP AS
  SELECT DISTINCT contract_id, (ts / ${HOUR})::integer AS hour
    FROM idx_changes WHERE currency_assumed;
DELETE FROM idx_hourly h USING assumed_hours a
 WHERE h.contract_id = a.contract_id AND h.hour = a.hour;
${hourlyRows(
  'idx_changes c',
  `(c.contract_id, (c.ts / ${HOUR})::integer) IN (SELECT contract_id, hour FROM assumed_hours)`,
)};
`,
  },
  {
    version: 9,
    name: 'webhooks: subscriptions and the outbox of their deliveries',
    sql: WEBHOOK_SCHEMA_SQL,
  },
  {
    version: 10,
    name: "index: a contract's first read stored in the record log alone, its index built from it",
    // Set while the contract's pages go into the log alone; cleared by the build that
    // reads the log once its list is read to the end (index/first-read.ts).
    sql: 'ALTER TABLE idx_contracts ADD COLUMN catching_up boolean NOT NULL DEFAULT false',
  },
  {
    version: 11,
    name: 'index: holders counted at moments asked before, kept until an older change arrives',
    // Read by holders as of a moment and the comparison of two (index/holder-moments.ts).
    sql: HOLDER_MOMENTS_SQL,
  },
];

export class SchemaTooNewError extends Error {}

// Advisory locks are 64-bit numbers; this one is the schema's (the store's list locks
// have a namespace of their own).
const SCHEMA_LOCK = 0x5e7_0001;

/** Brings the database up to the last of `steps`; returns the versions before and after. */
export async function migrate(
  pool: pg.Pool,
  steps: readonly Migration[] = migrations,
): Promise<{ from: number; to: number }> {
  const ordered = [...steps].sort((a, b) => a.version - b.version);
  ordered.forEach((step, index) => {
    if (step.version !== index + 1) {
      throw new Error(`migration ${step.version} (${step.name}) is not number ${index + 1}`);
    }
  });
  const known = ordered.length;
  return withClient(pool, async (client) => {
    await client.query('BEGIN');
    try {
      await client.query('SELECT pg_advisory_xact_lock($1)', [SCHEMA_LOCK]);
      await client.query(`CREATE TABLE IF NOT EXISTS schema_version (
        version integer PRIMARY KEY,
        name text NOT NULL,
        applied_at timestamptz NOT NULL DEFAULT now()
      )`);
      const { rows } = await client.query<{ version: number | null }>(
        'SELECT max(version) AS version FROM schema_version',
      );
      const from = rows[0]?.version ?? 0;
      if (from > known) {
        throw new SchemaTooNewError(
          `the database was created by a newer version of this server (schema ${from}, ` +
            `this server knows ${known}): upgrade this server, or give it another database`,
        );
      }
      for (const step of ordered.slice(from)) {
        await client.query(step.sql);
        await step.run?.(client);
        await client.query('INSERT INTO schema_version (version, name) VALUES ($1, $2)', [
          step.version,
          step.name,
        ]);
      }
      await client.query('COMMIT');
      return { from, to: Math.max(from, known) };
    } catch (error) {
      await client.query('ROLLBACK').catch(() => {});
      throw error;
    }
  });
}
