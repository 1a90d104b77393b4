-- SafeRetry inbox, schema version 1, MariaDB 10.6 or newer (not MySQL).
--
-- {receipts} is the receipts table (optionally schema-qualified), {marks} the same name with
-- _marks appended, and {index} the prefix of index names.
-- Inbox.builder().table(..).createSchema(true) runs this script; or a DBA runs it with all three
-- replaced, e.g. {receipts} = payments.saferetry_inbox, {marks} = payments.saferetry_inbox_marks,
-- {index} = saferetry_inbox,
-- followed by
--   INSERT INTO payments.saferetry_schema (component, version, min_reader)
--     VALUES ('saferetry_inbox', 1, 1);
-- (the saferetry_schema table: component VARCHAR(128) PRIMARY KEY, version INTEGER NOT NULL,
-- min_reader INTEGER NOT NULL).
--
-- Times are Unix epoch milliseconds.
-- utf8mb4_nopad_bin compares ids exactly: the default collations fold case and ignore trailing
-- spaces, so two different message ids could be taken for one and a message dropped.

-- One row per message a subscriber received: the primary key is what turns a redelivery into a
-- no-op. outcome is APPLIED or STALE (recorded, but older than what was already applied);
-- RECEIVING until the receiving transaction sets one of those just before it commits, so a
-- committed RECEIVING receipt means a handler ended that transaction early (a person decides).
CREATE TABLE IF NOT EXISTS {receipts} (
  subscriber  VARCHAR(200) NOT NULL,
  message_id  VARCHAR(255) NOT NULL,
  outcome     VARCHAR(16)  NOT NULL,
  received_at BIGINT       NOT NULL,
  PRIMARY KEY (subscriber, message_id)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_nopad_bin;

-- The high-water mark per resource: the position (creation time or version) of the newest message
-- applied to it, and which message that was.
CREATE TABLE IF NOT EXISTS {marks} (
  subscriber  VARCHAR(200) NOT NULL,
  resource_id VARCHAR(255) NOT NULL,
  high_water  BIGINT       NOT NULL,
  message_id  VARCHAR(255) NOT NULL,
  updated_at  BIGINT       NOT NULL,
  PRIMARY KEY (subscriber, resource_id)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_nopad_bin;

-- Retention (Inbox.purgeReceiptsOlderThan) deletes receipts by age; the marks are never purged.
CREATE INDEX IF NOT EXISTS {index}_received ON {receipts} (received_at);
