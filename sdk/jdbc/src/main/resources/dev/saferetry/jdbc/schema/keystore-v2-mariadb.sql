-- SafeRetry JDBC key store, schema version 2, MariaDB 10.6 or newer (not MySQL): run after version 1
-- (keystore-v1-mariadb.sql), with {table} replaced as there, then record version 2:
--   UPDATE payments.saferetry_schema SET version = 2, min_reader = 2
--     WHERE component = 'saferetry_intents';
--
-- Intents recorded for later sending (the outbox) also record where their key goes
-- (request_key_placement: 'header:<name>', 'structured-header:<name>' or 'body-field:<name>')
-- and the fingerprint of the stored request (request_fingerprint: hex SHA-256 over the intent,
-- key, method, target, placement, headers, content type and body). A relay sends the key exactly
-- where the row says, and holds (hold_reason 3, tampered) a row whose request no longer matches
-- its fingerprint; a row without them is never sent. Version 1 code cannot use this table.
ALTER TABLE {table} ADD COLUMN IF NOT EXISTS request_key_placement VARCHAR(300);
ALTER TABLE {table} ADD COLUMN IF NOT EXISTS request_fingerprint VARCHAR(64);
