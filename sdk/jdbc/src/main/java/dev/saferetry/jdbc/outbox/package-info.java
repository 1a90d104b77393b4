/**
 * The transactional outbox of a JDBC key store: {@link dev.saferetry.jdbc.outbox.JdbcOutbox}
 * records a call inside the caller's transaction, {@link dev.saferetry.jdbc.outbox.OutboxRelay}
 * instances send it later through the client under leases, {@link
 * dev.saferetry.jdbc.outbox.OutboxAdmin} lets an operator list and resolve what is held, and {@link
 * dev.saferetry.jdbc.outbox.SafeRetryMeters} measures it. The rules of leases, fencing, holds and
 * time are in docs/fleet-and-outbox.md.
 */
package dev.saferetry.jdbc.outbox;
