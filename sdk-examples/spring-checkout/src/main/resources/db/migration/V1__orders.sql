-- The checkout's own table; SafeRetry's tables come from its own migrations (saferetry.jdbc.schema-init).
CREATE TABLE orders (
  id VARCHAR(64) PRIMARY KEY,
  amount BIGINT NOT NULL,
  currency VARCHAR(3) NOT NULL,
  status VARCHAR(16) NOT NULL,
  charge_id VARCHAR(64)
);
