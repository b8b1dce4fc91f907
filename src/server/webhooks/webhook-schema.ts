/**
 * Webhooks' tables (a migration of src/server/database/migrations.ts).
 *
 * - `webhook_subscriptions`: a receiver's URL, its signing secret (given once, at
 *   creation), its rule (JSON, checked by rules.ts), the collection the rule watches
 *   (null: a wallet's moves in every collection), and when it was made: changes of hands
 *   older than that never fire, so a history read later is not news.
 * - `webhook_deliveries`: the outbox, written in the ingest's transaction that found the
 *   event (a crash loses none), one row per subscription and event under an id made of
 *   both (the same event found again is not queued twice). The deliverer claims due rows
 *   (`next_at`), and keeps the log: attempts, the last status or error, delivered or
 *   failed for good.
 */
export const WEBHOOK_SCHEMA_SQL = `
CREATE TABLE webhook_subscriptions (
  id bigserial PRIMARY KEY,
  url text NOT NULL,
  secret text NOT NULL,
  rule jsonb NOT NULL,
  collection text,
  created_at bigint NOT NULL
);
CREATE INDEX webhook_subscriptions_collection ON webhook_subscriptions (collection);

CREATE TABLE webhook_deliveries (
  id text PRIMARY KEY,
  subscription_id bigint NOT NULL REFERENCES webhook_subscriptions ON DELETE CASCADE,
  event text NOT NULL,
  body text NOT NULL,
  created_at bigint NOT NULL,
  attempts integer NOT NULL DEFAULT 0,
  next_at bigint NOT NULL,
  status text NOT NULL DEFAULT 'pending',
  last_status integer,
  last_error text,
  delivered_at bigint
);
CREATE INDEX webhook_deliveries_due ON webhook_deliveries (next_at) WHERE status = 'pending';
CREATE INDEX webhook_deliveries_log ON webhook_deliveries (subscription_id, created_at DESC, id);
`;
