import type pg from 'pg';
import { withClient } from '../database/held-client';
import { RANGES, rangeCounts } from './holder-figures';
import { lockContract, LATEST_FIRST } from './ingest';

/**
 * How many tokens each owner held at a moment, without replaying the whole history each
 * time. A count once worked out is kept (a "moment": `idx_holder_moments` and its rows in
 * `idx_holder_counts`); a later moment's counts are the nearest kept moment's, moved by the
 * changes of hands between the two: each token changed since is taken from the owner it
 * had then (its latest change up to the kept moment, one probe of `idx_changes_token`) and
 * given to the owner it has now. Replaying every change up to a moment grows with the
 * history; this grows with the changes since the nearest kept moment.
 *
 * A kept moment is only true while no change at or before it is added, removed or moved
 * to another owner: the index fills its history backwards, and a walk adds older changes
 * long after newer ones. Triggers on `idx_changes` drop every kept moment at or after the
 * earliest such change, in the transaction that makes it, whatever writes it (ingest, a
 * rebuild, a first read's build, a migration, the tests' TRUNCATE). A moment is kept
 * holding the contract's ingest lock, so no change can commit between the read it is
 * made from and its own commit.
 */
export const HOLDER_MOMENTS_SQL = `
CREATE TABLE idx_holder_moments (
  contract_id integer NOT NULL,
  at bigint NOT NULL,
  -- Tokens whose latest change by then is a burn.
  burned integer NOT NULL,
  made_at bigint NOT NULL,
  -- The figures then (holder-figures.ts): how many held, the tokens held, each range's.
  holders bigint NOT NULL,
  held bigint NOT NULL,
  ${RANGES.map((_, index) => `r${index} bigint NOT NULL,`).join(' ')}
  PRIMARY KEY (contract_id, at)
);
CREATE TABLE idx_holder_counts (
  contract_id integer NOT NULL,
  at bigint NOT NULL,
  owner bytea NOT NULL,
  tokens integer NOT NULL,
  PRIMARY KEY (contract_id, at, owner),
  FOREIGN KEY (contract_id, at) REFERENCES idx_holder_moments ON DELETE CASCADE
);
-- A page of holders and the ten largest, read in order.
CREATE INDEX idx_holder_counts_order ON idx_holder_counts (contract_id, at, tokens DESC, owner DESC);
-- With no moment kept (most of the time while a history is read), nothing to look at.
CREATE FUNCTION idx_holder_moments_rows_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NOT EXISTS (SELECT FROM idx_holder_moments) THEN RETURN NULL; END IF;
  DELETE FROM idx_holder_moments m
   USING (SELECT contract_id, min(ts) AS ts FROM changed_rows GROUP BY contract_id) c
   WHERE m.contract_id = c.contract_id AND m.at >= c.ts;
  RETURN NULL;
END $$;
CREATE FUNCTION idx_holder_moments_row_moved() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM idx_holder_moments
   WHERE contract_id IN (OLD.contract_id, NEW.contract_id) AND at >= least(OLD.ts, NEW.ts);
  RETURN NULL;
END $$;
CREATE FUNCTION idx_holder_moments_emptied() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM idx_holder_moments;
  RETURN NULL;
END $$;
CREATE TRIGGER idx_holder_moments_added AFTER INSERT ON idx_changes
  REFERENCING NEW TABLE AS changed_rows
  FOR EACH STATEMENT EXECUTE FUNCTION idx_holder_moments_rows_changed();
CREATE TRIGGER idx_holder_moments_removed AFTER DELETE ON idx_changes
  REFERENCING OLD TABLE AS changed_rows
  FOR EACH STATEMENT EXECUTE FUNCTION idx_holder_moments_rows_changed();
-- Row by row, and only for a change that moves a token: a twin joining its row, not a
-- sale's flags set again.
CREATE TRIGGER idx_holder_moments_moved AFTER UPDATE ON idx_changes
  FOR EACH ROW WHEN (
    OLD.to_addr IS DISTINCT FROM NEW.to_addr OR OLD.ts <> NEW.ts OR OLD.base_kind <> NEW.base_kind
    OR OLD.token_id <> NEW.token_id OR OLD.contract_id <> NEW.contract_id)
  EXECUTE FUNCTION idx_holder_moments_row_moved();
CREATE TRIGGER idx_holder_moments_emptied AFTER TRUNCATE ON idx_changes
  FOR EACH STATEMENT EXECUTE FUNCTION idx_holder_moments_emptied();
`;

export interface HolderCounts {
  /** Each owner holding at least one token, in no order. */
  owners: { owner: Buffer; tokens: number }[];
  burned: number;
}

export interface MomentSettings {
  /** Changes between the nearest kept moment and the one asked past which it is kept too. */
  keepAfter: number;
  /** Moments kept per contract; the oldest made goes first. */
  keep: number;
}

// A kept moment holds a row per holder then, about 220 bytes with its two indexes (70 MB
// for 300,000 holders): a couple of dozen moments a collection, not one per day asked.
export const DEFAULT_MOMENTS: MomentSettings = { keepAfter: 2_000, keep: 24 };

const ranges = RANGES.map((_, index) => `r${index}`);

/**
 * CTEs over the nearest kept moment at or before `at` ($2; none kept: the empty moment,
 * −1) and every change after it up to `at`, $1 the contract: `moved`, each owner those
 * changes touched, with its count at the kept moment (`was`) and at `at` (`tokens`);
 * `counts` (owner, tokens), every holder at `at`: `kept`, the kept counts of the owners
 * untouched, and the touched ones' new counts (`largestFirst` reads a few of them in
 * order); `figures` (holders, held, r0…), the kept figures moved by
 * the touched owners' old and new counts; `burned` (n). So a page and the figures cost the
 * changes since the kept moment, not its holders. Read in one statement, so one snapshot
 * of the database: a moment dropped meanwhile is not half read.
 */
export const COUNTS_AT = `
m AS MATERIALIZED (
  SELECT coalesce(max(at), -1) AS at FROM idx_holder_moments WHERE contract_id = $1 AND at <= $2),
changed AS MATERIALIZED (
  SELECT DISTINCT ON (token_id) token_id, to_addr, kind = 3 AS burned
  FROM idx_changes WHERE contract_id = $1 AND ts > (SELECT at FROM m) AND ts <= $2
  ORDER BY token_id, ${LATEST_FIRST}),
was AS MATERIALIZED (
  SELECT w.to_addr, w.burned FROM changed c CROSS JOIN LATERAL (
    SELECT to_addr, kind = 3 AS burned FROM idx_changes
    WHERE contract_id = $1 AND token_id = c.token_id AND ts <= (SELECT at FROM m)
    ORDER BY ${LATEST_FIRST} LIMIT 1) w),
moved AS MATERIALIZED (
  SELECT t.owner, k.was, k.was + t.d AS tokens
  FROM (SELECT owner, sum(d)::integer AS d FROM (
      SELECT to_addr AS owner, 1 AS d FROM changed WHERE NOT burned
      UNION ALL SELECT to_addr, -1 FROM was WHERE NOT burned) o GROUP BY owner) t
  -- One look-up by the key each (a join would read every kept count of the moment), none
  -- with no moment kept.
  CROSS JOIN LATERAL (SELECT CASE WHEN (SELECT at FROM m) < 0 THEN 0
    ELSE coalesce((SELECT tokens FROM idx_holder_counts
      WHERE contract_id = $1 AND at = (SELECT at FROM m) AND owner = t.owner), 0) END AS was) k),
-- NOT IN, a filter on the rows as the index gives them: an anti join would lose their order.
kept AS NOT MATERIALIZED (
  SELECT owner, tokens FROM idx_holder_counts
  WHERE contract_id = $1 AND at = (SELECT at FROM m) AND owner NOT IN (SELECT owner FROM moved)),
counts AS NOT MATERIALIZED (
  SELECT owner, tokens FROM kept UNION ALL SELECT owner, tokens FROM moved WHERE tokens > 0),
figures AS (
  SELECT coalesce(s.holders, 0) + d.holders AS holders, coalesce(s.held, 0) + d.held AS held,
    ${ranges.map((r) => `coalesce(s.${r}, 0) + d.${r} - d.was_${r} AS ${r}`).join(', ')}
  FROM (SELECT count(*) FILTER (WHERE tokens > 0) - count(*) FILTER (WHERE was > 0) AS holders,
      coalesce(sum(tokens) FILTER (WHERE tokens > 0), 0) - coalesce(sum(was), 0) AS held,
      ${rangeCounts('tokens')}, ${rangeCounts('was', (index) => `was_r${index}`)}
    FROM moved) d
  LEFT JOIN idx_holder_moments s ON s.contract_id = $1 AND s.at = (SELECT at FROM m)),
burned AS (
  SELECT (coalesce((SELECT burned FROM idx_holder_moments
      WHERE contract_id = $1 AND at = (SELECT at FROM m)), 0)
    + (SELECT count(*) FROM changed WHERE burned)
    - (SELECT count(*) FROM was WHERE burned))::integer AS n)`;

/**
 * The first `limit` of the holders at `at` where `where` holds, largest first, then by
 * owner (descending), from the CTEs of `COUNTS_AT`: the kept counts read in the order of
 * their index and the touched owners', each as far as the limit.
 */
export const largestFirst = (where: string, limit: string) => `SELECT owner, tokens FROM (
  (SELECT owner, tokens FROM kept WHERE ${where} ORDER BY tokens DESC, owner DESC LIMIT ${limit})
  UNION ALL (SELECT owner, tokens FROM moved WHERE tokens > 0 AND ${where}
    ORDER BY tokens DESC, owner DESC LIMIT ${limit})) u
  ORDER BY tokens DESC, owner DESC LIMIT ${limit}`;

async function countsFrom(
  db: pg.Pool | pg.ClientBase,
  contractId: number,
  at: number,
): Promise<HolderCounts> {
  const { rows } = await db.query<{ owner: Buffer | null; tokens: number }>(
    `WITH ${COUNTS_AT} SELECT owner, tokens FROM counts UNION ALL SELECT NULL, n FROM burned`,
    [contractId, at],
  );
  const owners = rows.filter((row): row is { owner: Buffer; tokens: number } => row.owner !== null);
  return { owners, burned: rows.find((row) => row.owner === null)?.tokens ?? 0 };
}

/**
 * Keeps the moment `at` when it is far enough from the nearest kept one (`keepIn`: the
 * primary, as a replica cannot write); whether it did.
 */
export async function keepIfFar(
  read: pg.Pool,
  contractId: number,
  at: number,
  keepIn: pg.Pool,
  settings: MomentSettings = DEFAULT_MOMENTS,
): Promise<boolean> {
  const { rows } = await read.query<{ at: string }>(
    'SELECT coalesce(max(at), -1) AS at FROM idx_holder_moments WHERE contract_id = $1 AND at <= $2',
    [contractId, at],
  );
  const from = Number(rows[0]!.at);
  if (from === at) return false;
  if ((await changesBetween(read, contractId, from, at, settings.keepAfter)) < settings.keepAfter)
    return false;
  await keepMoment(keepIn, contractId, at, settings);
  return true;
}

/**
 * Each owner's tokens at `at` (every change at or before it counted), every one of them:
 * for comparing two moments. With `keepIn`, a moment far enough from the nearest kept one
 * is kept for the next question (`keepIfFar`).
 */
export async function holderCountsAt(
  read: pg.Pool,
  contractId: number,
  at: number,
  keepIn?: pg.Pool,
  settings: MomentSettings = DEFAULT_MOMENTS,
): Promise<HolderCounts> {
  if (keepIn) await keepIfFar(read, contractId, at, keepIn, settings);
  return countsFrom(read, contractId, at);
}

/** Changes of hands in (from, at], counted up to `bound`. */
async function changesBetween(
  pool: pg.Pool,
  contractId: number,
  from: number,
  at: number,
  bound: number,
): Promise<number> {
  const { rows } = await pool.query<{ n: number }>(
    `SELECT count(*)::integer AS n FROM (SELECT 1 FROM idx_changes
      WHERE contract_id = $1 AND ts > $2 AND ts <= $3 LIMIT $4) c`,
    [contractId, from, at, bound],
  );
  return rows[0]!.n;
}

/** Works the counts out again under the ingest lock and keeps them as a moment. */
function keepMoment(
  pool: pg.Pool,
  contractId: number,
  at: number,
  settings: MomentSettings,
): Promise<void> {
  return withClient(pool, async (client) => {
    await client.query('BEGIN');
    try {
      await lockContract(client, contractId);
      await client.query(
        `WITH ${COUNTS_AT},
         made AS (INSERT INTO idx_holder_moments
             (contract_id, at, burned, made_at, holders, held, ${ranges.join(', ')})
           SELECT $1, $2, (SELECT n FROM burned), $3, holders, held, ${ranges.join(', ')}
           FROM figures ON CONFLICT DO NOTHING RETURNING at)
         INSERT INTO idx_holder_counts (contract_id, at, owner, tokens)
         SELECT $1, $2, owner, tokens FROM counts WHERE EXISTS (SELECT FROM made)`,
        [contractId, at, Date.now()],
      );
      await client.query(
        `DELETE FROM idx_holder_moments WHERE contract_id = $1 AND at IN (
           SELECT at FROM idx_holder_moments WHERE contract_id = $1
           ORDER BY made_at DESC, at DESC OFFSET $2)`,
        [contractId, settings.keep],
      );
      await client.query('COMMIT');
    } catch (error) {
      await client.query('ROLLBACK');
      throw error;
    }
  });
}

/**
 * When each of these owners' holding at `at` began: the earliest change, at or before it,
 * that brought them a token they still held then (the token's latest change by then, no
 * burn), as `HOLDING_SINCE` says of a replay. Each owner's receipts are read oldest first
 * until the first such one.
 */
export async function sinceAt(
  pool: pg.Pool,
  contractId: number,
  at: number,
  owners: Buffer[],
): Promise<Map<string, number>> {
  if (owners.length === 0) return new Map();
  const { rows } = await pool.query<{ owner: Buffer; since: string }>(
    `SELECT o.owner, s.ts AS since FROM unnest($3::bytea[]) AS o(owner) CROSS JOIN LATERAL (
       SELECT c.ts FROM idx_changes c
       WHERE c.to_addr = o.owner AND c.contract_id = $1 AND c.ts <= $2 AND c.kind <> 3
         AND NOT EXISTS (SELECT FROM idx_changes l
           WHERE l.contract_id = $1 AND l.token_id = c.token_id AND l.ts <= $2
             AND (l.ts, l.rank, l.id) > (c.ts, c.rank, c.id))
       ORDER BY c.ts, c.id LIMIT 1) s`,
    [contractId, at, owners],
  );
  return new Map(rows.map((row) => [row.owner.toString('hex'), Number(row.since)]));
}
