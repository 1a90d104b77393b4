-- SafeRetry JDBC key store, schema version 1, MariaDB 10.6 or newer (not MySQL).
--
-- A versioned migration for Flyway or Liquibase, and the script the SDK itself runs when a
-- builder is told createSchema(true): one file, so the two cannot drift. It creates, in the
-- current (default) schema, the tables saferetry_intents, saferetry_intents_order and
-- saferetry_intents_audit with their indexes, and records
-- the version in saferetry_schema, which the SDK checks at start-up. Running it again changes
-- nothing. The names are the defaults; the SDK renames them for a builder given another table or
-- schema. See docs/fleet-and-outbox.md, "Schema files".

-- The version table, shared by every SafeRetry component in this schema: one row per component
-- (its main table's name), with the version of its tables and the oldest SafeRetry code version
-- that can use them.
CREATE TABLE IF NOT EXISTS saferetry_schema (
  component  VARCHAR(128) NOT NULL PRIMARY KEY,
  version    INTEGER      NOT NULL,
  min_reader INTEGER      NOT NULL
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_nopad_bin;

-- One row per intent, keyed by tenant, operation and intent id. Instants are nanoseconds since
-- 1970-01-01T00:00:00Z in BIGINT columns (*_ns), so every java.time.Instant between the years
-- 1677 and 2262 round-trips exactly. state: 0 pending, 1 succeeded, 2 failed.
-- The request_* and relay columns are filled only for intents recorded for later sending (the
-- outbox); text is compared byte for byte (utf8mb4_nopad_bin: 'A' <> 'a', 'a' <> 'a ').
-- relay_state: 0 queued, 1 done, 3 abandoned by an operator (never sent again under its intent id
-- until an operator releases it; state keeps what is known: 0 while the outcome is unknown),
-- 2 held for a person (hold_reason 1 expired, 2 rejected,
-- 3 tampered, 4 unsendable, 5 unsettled, 6 too many attempts). request_key_placement says where the key goes
-- ('header:<name>', 'structured-header:<name>' or 'body-field:<name>'), request_fingerprint is the
-- hex SHA-256 over the intent, key, method, target, placement, headers, content type and body: a
-- relay sends the key exactly where the row says, holds (tampered) a row whose request no longer
-- matches its fingerprint, and never sends a row without them.
-- Ordering: intents of one tenant and ordering_key are sent one at a time, in the order their
-- transactions committed: ordering_seq is taken at enqueue from the key's row in
-- saferetry_intents_order, whose row lock is held until that transaction ends. A relay claims
-- only the head of each key; holds_key = 1 on a held intent keeps the later intents of its key
-- waiting until it is resolved, 0 lets them go.
CREATE TABLE IF NOT EXISTS saferetry_intents (
  tenant           VARCHAR(128)  NOT NULL,
  operation        VARCHAR(255)  NOT NULL,
  intent_id        VARCHAR(255)  NOT NULL,
  idempotency_key  VARCHAR(255)  NOT NULL,
  fingerprint      VARCHAR(512)  NOT NULL,
  state            SMALLINT      NOT NULL CHECK (state IN (0, 1, 2)),
  created_at_ns    BIGINT        NOT NULL,
  expires_at_ns    BIGINT        NOT NULL,
  status           INTEGER       NOT NULL,
  resource_id      MEDIUMTEXT,
  begin_nonce      BIGINT        NOT NULL,
  request_method   VARCHAR(16),
  request_target   MEDIUMTEXT,
  request_headers  MEDIUMTEXT,
  request_type     VARCHAR(255),
  request_body     MEDIUMBLOB,
  relay_state      SMALLINT      CHECK (relay_state IN (0, 1, 2, 3)),
  hold_reason      SMALLINT,
  relay_note       VARCHAR(1000),
  attempts         INTEGER       NOT NULL DEFAULT 0,
  next_attempt_ns  BIGINT,
  lease_owner      VARCHAR(128),
  lease_token      BIGINT        NOT NULL DEFAULT 0,
  lease_expires_ns BIGINT,
  request_key_placement VARCHAR(300),
  request_fingerprint   VARCHAR(64),
  ordering_key     VARCHAR(255),
  ordering_seq     BIGINT,
  holds_key        SMALLINT,
  PRIMARY KEY (tenant, operation, intent_id),
  INDEX saferetry_intents_pending (state, created_at_ns),
  INDEX saferetry_intents_expiry (expires_at_ns),
  INDEX saferetry_intents_relay (relay_state, next_attempt_ns),
  INDEX saferetry_intents_ordering (tenant, ordering_key, ordering_seq)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_nopad_bin;

-- The next ordering_seq of each tenant and ordering key.
CREATE TABLE IF NOT EXISTS saferetry_intents_order (
  tenant           VARCHAR(128)  NOT NULL,
  ordering_key     VARCHAR(255)  NOT NULL,
  next_seq         BIGINT        NOT NULL,
  PRIMARY KEY (tenant, ordering_key)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_nopad_bin;

-- Every action an operator takes on an outbox intent: who, when (at_ns), what, why, the state
-- before and after, and the action's own id (action_id), so that repeating an action records it
-- once.
CREATE TABLE IF NOT EXISTS saferetry_intents_audit (
  audit_id         BIGINT        NOT NULL AUTO_INCREMENT PRIMARY KEY,
  action_id        VARCHAR(128)  NOT NULL,
  at_ns            BIGINT        NOT NULL,
  actor            VARCHAR(128)  NOT NULL,
  action           VARCHAR(32)   NOT NULL,
  tenant           VARCHAR(128)  NOT NULL,
  operation        VARCHAR(255)  NOT NULL,
  intent_id        VARCHAR(255)  NOT NULL,
  reason           VARCHAR(1000) NOT NULL,
  state_before     VARCHAR(64),
  state_after      VARCHAR(64),
  new_key          VARCHAR(255),
  old_key          VARCHAR(255),
  UNIQUE (action_id, tenant, operation, intent_id)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_nopad_bin;

-- Version 1, readable by SafeRetry code of schema version 1 or newer. Kept as it is when the
-- component is already recorded.
INSERT INTO saferetry_schema (component, version, min_reader)
  SELECT 'saferetry_intents', 1, 1 FROM DUAL
  WHERE NOT EXISTS (SELECT 1 FROM saferetry_schema WHERE component = 'saferetry_intents');
