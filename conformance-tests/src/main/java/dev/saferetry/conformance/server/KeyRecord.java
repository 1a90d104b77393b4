package dev.saferetry.conformance.server;

import java.time.Instant;

/**
 * One row of {@code api_idempotency} as read under its row lock.
 *
 * @param state {@code PENDING} or {@code COMPLETED}
 * @param requestHash SHA-256 of the normalised request
 * @param outcome the stored outcome when completed, else null
 * @param lockOwner the request that holds a pending record
 * @param lockedAt when the pending record was claimed
 * @param expiresAt when the record stops counting (retention)
 */
record KeyRecord(
    String state,
    String requestHash,
    Outcome outcome,
    String lockOwner,
    Instant lockedAt,
    Instant expiresAt) {

  static final String PENDING = "PENDING";
  static final String COMPLETED = "COMPLETED";

  boolean completed() {
    return COMPLETED.equals(state);
  }
}
