/**
 * SafeRetry on your own relational database (PostgreSQL, H2, MariaDB) through plain JDBC: the
 * {@link dev.saferetry.jdbc.Inbox} that turns redelivered messages and webhooks into no-ops by
 * recording each receipt in the same transaction as its effects, with per-resource high-water marks
 * for out-of-order delivery.
 */
package dev.saferetry.jdbc;
