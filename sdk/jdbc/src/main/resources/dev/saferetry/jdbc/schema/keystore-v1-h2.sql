-- SafeRetry JDBC key store, schema version 1, H2 2.2 or newer.
--
-- {table} is the store's table (optionally schema-qualified) and {index} the prefix of its index
-- names; JdbcKeyStore.builder(..).createSchema(true) runs this script, or a DBA runs it with both
-- replaced, e.g. {table} = payments.saferetry_intents, {index} = payments.saferetry_intents, followed by
--   INSERT INTO payments.saferetry_schema (component, version, min_reader)
--     VALUES ('saferetry_intents', 1, 1);
-- (the saferetry_schema table: component VARCHAR(128) PRIMARY KEY, version INTEGER NOT NULL,
-- min_reader INTEGER NOT NULL).
--
-- One row per intent, keyed by tenant, operation and intent id. Instants are nanoseconds since
-- 1970-01-01T00:00:00Z in BIGINT columns (*_ns), so every java.time.Instant between the years
-- 1677 and 2262 round-trips exactly. state: 0 pending, 1 succeeded, 2 failed.
-- The request_* and relay columns are filled only for intents recorded for later sending (the
-- outbox); relay_state: 0 queued, 1 done, 2 held for a person (hold_reason 1 expired, 2 rejected, 3 tampered, 4 unsendable, 5 unsettled).
CREATE TABLE IF NOT EXISTS {table} (
  tenant           VARCHAR(128)  NOT NULL,
  operation        VARCHAR(255)  NOT NULL,
  intent_id        VARCHAR(255)  NOT NULL,
  idempotency_key  VARCHAR(255)  NOT NULL,
  fingerprint      VARCHAR(512)  NOT NULL,
  state            SMALLINT      NOT NULL CHECK (state IN (0, 1, 2)),
  created_at_ns    BIGINT        NOT NULL,
  expires_at_ns    BIGINT        NOT NULL,
  status           INTEGER       NOT NULL,
  resource_id      CHARACTER VARYING,
  begin_nonce      BIGINT        NOT NULL,
  request_method   VARCHAR(16),
  request_target   CHARACTER VARYING,
  request_headers  CHARACTER VARYING,
  request_type     VARCHAR(255),
  request_body     VARBINARY,
  relay_state      SMALLINT      CHECK (relay_state IN (0, 1, 2)),
  hold_reason      SMALLINT,
  relay_note       VARCHAR(1000),
  attempts         INTEGER       NOT NULL DEFAULT 0,
  next_attempt_ns  BIGINT,
  lease_owner      VARCHAR(128),
  lease_token      BIGINT        NOT NULL DEFAULT 0,
  lease_expires_ns BIGINT,
  PRIMARY KEY (tenant, operation, intent_id)
);
CREATE INDEX IF NOT EXISTS {index}_pending ON {table} (state, created_at_ns);
CREATE INDEX IF NOT EXISTS {index}_expiry ON {table} (expires_at_ns);
CREATE INDEX IF NOT EXISTS {index}_relay ON {table} (relay_state, next_attempt_ns);
