/**
 * Not API. The outbox's statements on the key store's table: the relay's claims and fenced writes
 * under leases, the operator's listing and audited actions, and who owns an intent the outbox
 * holds. Built on {@code dev.saferetry.jdbc.internal.keystore}.
 */
package dev.saferetry.jdbc.internal.outbox;
