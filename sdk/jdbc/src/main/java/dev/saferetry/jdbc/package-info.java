/**
 * SafeRetry on your own relational database (PostgreSQL, H2, MariaDB) through plain JDBC; the
 * driver and the pool are the application's. On the sending side, {@link
 * dev.saferetry.jdbc.JdbcKeyStore} keeps intents where every instance of a fleet sees them, records
 * an intent inside the caller's transaction, and holds the transactional outbox with leases and
 * fencing ({@link dev.saferetry.jdbc.JdbcOutbox}), which {@link dev.saferetry.jdbc.OutboxRelay}
 * instances send through the client under leases. On the receiving side, the {@link
 * dev.saferetry.jdbc.Inbox} turns redelivered messages and webhooks into no-ops by recording each
 * receipt in the same transaction as its effects, with per-resource high-water marks for
 * out-of-order delivery.
 */
package dev.saferetry.jdbc;
