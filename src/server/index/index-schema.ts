/**
 * The event index's tables (a migration of src/server/database/migrations.ts).
 *
 * - `idx_contracts`: every contract met (its id is what the other tables name), with what
 *   the contracts list says of it and how much of its history is indexed (coverage).
 * - `idx_changes`: one row per change of hands. A sale's two records (the NFT's transfer
 *   and the marketplace's sale) share a `key` (contract, transaction, token and the pair
 *   of addresses, in either order), so they land on one row whichever comes first; the
 *   transfer's columns say who held the token, the sale's add price, currency, quantity
 *   and marketplace. Addresses and hashes are 32-byte `bytea`, token ids and prices exact
 *   `numeric`; changes are found by transaction through `idx_changes_tx` (migration 7). A
 *   sale that names no currency is stored as ETH with `currency_assumed` (migration 8).
 * - `idx_tokens`: each token's latest change (owner, since, burned), moved on by each
 *   ingest's changes of it (the latest in time wins; see LATEST_FIRST in ingest.ts).
 * - `idx_owners`: each holder's count of tokens, moved by the tokens whose holder changed:
 *   holders now, their count and distribution read it, not every token.
 * - `idx_hourly`: counts and volume per hour, kind, marketplace and currency, recomputed
 *   for the hours an ingest touched: overview, series and rankings read these.
 */
export const INDEX_SCHEMA_SQL = `
CREATE TABLE idx_contracts (
  id serial PRIMARY KEY,
  address text NOT NULL UNIQUE,
  name text,
  symbol text,
  image text,
  contract_type text,
  listed boolean NOT NULL DEFAULT false,
  complete boolean NOT NULL DEFAULT false,
  oldest_ts bigint,
  newest_ts bigint,
  records bigint NOT NULL DEFAULT 0,
  upstream_failure text,
  upstream_failure_at bigint,
  walk_fault text
);

CREATE TABLE idx_changes (
  id bigserial PRIMARY KEY,
  key bytea NOT NULL UNIQUE,
  contract_id integer NOT NULL,
  tx bytea NOT NULL,
  token_id numeric(78, 0) NOT NULL,
  from_addr bytea NOT NULL,
  to_addr bytea NOT NULL,
  ts bigint NOT NULL,
  base_kind smallint NOT NULL,
  label text NOT NULL,
  event_id text NOT NULL,
  has_transfer boolean NOT NULL,
  has_sale boolean NOT NULL,
  price numeric(78, 0),
  price_text text,
  currency bytea,
  quantity numeric(78, 0),
  marketplace text,
  marketplace_addr bytea,
  seller bytea,
  buyer bytea,
  kind smallint GENERATED ALWAYS AS (
    CASE WHEN has_sale AND base_kind IN (1, 2) THEN 2 ELSE base_kind END
  ) STORED,
  rank smallint GENERATED ALWAYS AS (
    CASE WHEN base_kind = 0 THEN 0 WHEN base_kind = 3 THEN 2 ELSE 1 END
  ) STORED,
  cur_rank smallint GENERATED ALWAYS AS (
    CASE
      WHEN NOT has_sale THEN NULL
      WHEN currency = '\\x'::bytea THEN 3
      WHEN currency = '\\x049d36570d4e46f48e99674bd3fcc84644ddd6b96f7c741b1562b82f9e004dc7'::bytea THEN 0
      WHEN currency = '\\x04718f5a0fc34cc1af16a1cdee98ffb20c31f5cd61d6ab07201858f4287c938d'::bytea THEN 1
      WHEN currency = '\\x053c91253bc9682c04929ca02ed00b3e423f6710d2ee7e0d5ebb06f3ecf368a8'::bytea THEN 2
      ELSE 4
    END
  ) STORED
);
CREATE INDEX idx_changes_time ON idx_changes (contract_id, ts DESC, id DESC);
CREATE INDEX idx_changes_kind ON idx_changes (contract_id, kind, ts DESC, id DESC);
-- A token's changes, latest first by the holder rule, with what holders need: "as of a
-- date" reads this index alone.
CREATE INDEX idx_changes_token ON idx_changes
  (contract_id, token_id, ts DESC, rank DESC, id DESC) INCLUDE (to_addr, kind);
CREATE INDEX idx_changes_from ON idx_changes (from_addr, ts DESC, id DESC);
CREATE INDEX idx_changes_to ON idx_changes (to_addr, ts DESC, id DESC);
-- Within one currency (an equality on the first three columns) read either way.
CREATE INDEX idx_changes_price ON idx_changes (contract_id, cur_rank, currency, price, id)
  WHERE has_sale;

CREATE TABLE idx_tokens (
  contract_id integer NOT NULL,
  token_id numeric(78, 0) NOT NULL,
  owner bytea NOT NULL,
  since bigint NOT NULL,
  rank smallint NOT NULL,
  last_id bigint NOT NULL,
  first_ts bigint NOT NULL,
  minted boolean NOT NULL,
  burned boolean NOT NULL,
  changes integer NOT NULL,
  PRIMARY KEY (contract_id, token_id)
);
CREATE INDEX idx_tokens_owner ON idx_tokens (owner, contract_id);
CREATE INDEX idx_tokens_holders ON idx_tokens (contract_id, owner) INCLUDE (since) WHERE NOT burned;
CREATE INDEX idx_tokens_burned ON idx_tokens (contract_id) WHERE burned;

CREATE TABLE idx_owners (
  contract_id integer NOT NULL,
  owner bytea NOT NULL,
  tokens integer NOT NULL,
  PRIMARY KEY (contract_id, owner)
);
CREATE INDEX idx_owners_tokens ON idx_owners (contract_id, tokens, owner);

CREATE TABLE idx_hourly (
  contract_id integer NOT NULL,
  hour integer NOT NULL,
  kind smallint NOT NULL,
  marketplace text NOT NULL,
  currency bytea NOT NULL,
  events integer NOT NULL,
  volume numeric(78, 0) NOT NULL,
  PRIMARY KEY (contract_id, hour, kind, marketplace, currency)
);
CREATE INDEX idx_hourly_hour ON idx_hourly (hour, contract_id);
`;

/** Kinds as stored (`idx_changes.kind`), in the app's order of EVENT_KINDS. */
export const KIND_CODES = { mint: 0, transfer: 1, sale: 2, burn: 3, other: 4 } as const;
