/**
 * The receiving side: {@link dev.saferetry.jdbc.inbox.Inbox} turns redelivered messages and
 * webhooks into no-ops by recording each receipt in the same transaction as its effects, with
 * per-resource high-water marks for out-of-order delivery.
 */
package dev.saferetry.jdbc.inbox;
