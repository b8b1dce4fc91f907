/**
 * The record log's tables (migration 6 of src/server/database/migrations.ts).
 *
 * - `log_lists`: one row per upstream list (`path`: `/v1/contracts`, `/v1/events/0x…`,
 *   `/v1/events/0x…/<id>`) and how far it has been read: `complete` once its depth was read
 *   to the end, `frontier` the service's cursor reading on past the deepest record, `gap_*`
 *   a head read that has not yet met what was stored before it, `fault` a list stopped as
 *   faulty, `verify_*` the verification pass.
 * - `log_records`: every record the service sent, as it sent it (`body`, the JSON bytes),
 *   with its list, its identity (`key`: 16 bytes of SHA-256 of the fields that name it),
 *   its time and its place (`seq`, the order it arrived in). Kept for good: nothing is
 *   evicted; a record the service no longer lists is marked (`removed_at`), not deleted.
 *   A contract's events are served newest first by (`ts`, `seq`); stable lists by `seq`.
 * - `log_source`: the one service the log was read from (a real service's URL, or the
 *   sample's profile, seed and anchor).
 */
export const LOG_SCHEMA_SQL = `
CREATE TABLE log_lists (
  id serial PRIMARY KEY,
  path text NOT NULL UNIQUE,
  stable boolean NOT NULL,
  complete boolean NOT NULL DEFAULT false,
  frontier text,
  gap_cursor text,
  gap_ts bigint,
  head_checked_at bigint NOT NULL DEFAULT 0,
  records bigint NOT NULL DEFAULT 0,
  fault text,
  verified_at bigint,
  verify_run bigint,
  verify_seq bigint,
  verify_cursor text,
  verify_pages integer NOT NULL DEFAULT 0,
  verify_added integer NOT NULL DEFAULT 0,
  verify_changed integer NOT NULL DEFAULT 0,
  removed integer NOT NULL DEFAULT 0
);
CREATE TABLE log_records (
  list_id integer NOT NULL,
  seq bigserial,
  key bytea NOT NULL,
  ts bigint NOT NULL,
  body bytea NOT NULL,
  seen bigint NOT NULL DEFAULT 0,
  removed_at bigint,
  PRIMARY KEY (list_id, seq)
);
CREATE UNIQUE INDEX log_records_key ON log_records (list_id, key);
CREATE INDEX log_records_time ON log_records (list_id, ts DESC, seq);
CREATE TABLE log_source (
  one boolean PRIMARY KEY DEFAULT true CHECK (one),
  service text NOT NULL,
  description text NOT NULL,
  sample_anchor bigint,
  since timestamptz NOT NULL DEFAULT now()
);
`;
