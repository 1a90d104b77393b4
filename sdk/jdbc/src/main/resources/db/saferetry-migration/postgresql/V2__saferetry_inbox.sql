-- SafeRetry inbox, schema version 1, PostgreSQL 12 or newer.
--
-- A versioned migration for Flyway or Liquibase, and the script the SDK itself runs when a
-- builder is told createSchema(true): one file, so the two cannot drift. It creates, in the
-- current (default) schema, the tables saferetry_inbox (receipts) and saferetry_inbox_marks
-- (high-water marks), and records
-- the version in saferetry_schema, which the SDK checks at start-up. Running it again changes
-- nothing. The names are the defaults; the SDK renames them for a builder given another table or
-- schema. See docs/fleet-and-outbox.md, "Schema files".
--
-- Times are Unix epoch milliseconds.

-- The version table, shared by every SafeRetry component in this schema (see the key store's).
CREATE TABLE IF NOT EXISTS saferetry_schema (
  component  VARCHAR(128) NOT NULL PRIMARY KEY,
  version    INTEGER      NOT NULL,
  min_reader INTEGER      NOT NULL
);

-- One row per message a subscriber received: the primary key is what turns a redelivery into a
-- no-op. outcome is APPLIED or STALE (recorded, but older than what was already applied);
-- RECEIVING until the receiving transaction sets one of those just before it commits, so a
-- committed RECEIVING receipt means a handler ended that transaction early (a person decides).
CREATE TABLE IF NOT EXISTS saferetry_inbox (
  subscriber  VARCHAR(200) NOT NULL,
  message_id  VARCHAR(255) NOT NULL,
  outcome     VARCHAR(16)  NOT NULL,
  received_at BIGINT       NOT NULL,
  PRIMARY KEY (subscriber, message_id)
);

-- The high-water mark per resource: the position (creation time or version) of the newest message
-- applied to it, and which message that was.
CREATE TABLE IF NOT EXISTS saferetry_inbox_marks (
  subscriber  VARCHAR(200) NOT NULL,
  resource_id VARCHAR(255) NOT NULL,
  high_water  BIGINT       NOT NULL,
  message_id  VARCHAR(255) NOT NULL,
  updated_at  BIGINT       NOT NULL,
  PRIMARY KEY (subscriber, resource_id)
);

-- Retention (Inbox.purgeReceiptsOlderThan) deletes receipts by age; the marks are never purged.
CREATE INDEX IF NOT EXISTS saferetry_inbox_received ON saferetry_inbox (received_at);

-- Version 1, readable by SafeRetry code of schema version 1 or newer. Kept as it is when the
-- component is already recorded.
INSERT INTO saferetry_schema (component, version, min_reader)
  SELECT 'saferetry_inbox', 1, 1
  WHERE NOT EXISTS (SELECT 1 FROM saferetry_schema WHERE component = 'saferetry_inbox');
