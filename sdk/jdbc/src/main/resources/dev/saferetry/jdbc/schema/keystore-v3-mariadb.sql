-- SafeRetry JDBC key store, schema version 3, MariaDB 10.6 or newer (not MySQL): run after version 2
-- (keystore-v2-mariadb.sql), with {table} and {index} replaced as there, then record version 3:
--   UPDATE payments.saferetry_schema SET version = 3, min_reader = 3
--     WHERE component = 'saferetry_intents';
--
-- Ordering: an outbox intent may carry an ordering key (ordering_key, e.g. an order id). Intents of
-- one tenant and ordering key are sent one at a time, in the order their transactions committed:
-- ordering_seq is taken at enqueue from the key's row in {table}_order, whose row lock is held
-- until that transaction ends, so a later transaction of the same key gets a higher number only
-- after the earlier one committed or rolled back. A relay claims only the head of each key: the
-- intent with no unfinished intent of a lower ordering_seq before it. holds_key = 1 on a held
-- (parked) intent keeps the later intents of its key waiting until it is resolved; 0 lets them go.
--
-- Audit: every action an operator takes on an outbox intent is recorded in {table}_audit: who,
-- when (at_ns, nanoseconds since the epoch), what, why, the state before and after, and the
-- action's own id (action_id) so that repeating an action records it once. old_key is the key the
-- intent had before an action that gave it a new one (new_key), which the provider may still know.
ALTER TABLE {table} ADD COLUMN IF NOT EXISTS ordering_key VARCHAR(255);
ALTER TABLE {table} ADD COLUMN IF NOT EXISTS ordering_seq BIGINT;
ALTER TABLE {table} ADD COLUMN IF NOT EXISTS holds_key SMALLINT;
CREATE INDEX IF NOT EXISTS {index}_ordering ON {table} (tenant, ordering_key, ordering_seq);
CREATE TABLE IF NOT EXISTS {table}_order (
  tenant           VARCHAR(128)  NOT NULL,
  ordering_key     VARCHAR(255)  NOT NULL,
  next_seq         BIGINT        NOT NULL,
  PRIMARY KEY (tenant, ordering_key)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_nopad_bin;
CREATE TABLE IF NOT EXISTS {table}_audit (
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
