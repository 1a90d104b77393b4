package dev.saferetry.jdbc.internal;

import dev.saferetry.idempotency.IntentRecord;
import dev.saferetry.idempotency.IntentState;
import dev.saferetry.idempotency.StoredRequest;
import java.time.Instant;
import java.util.Objects;

/**
 * What a begin writes: an intent record and, for an intent recorded for the relay, the request to
 * send and when to send it first.
 *
 * <p>Immutable and thread-safe.
 *
 * @param record the pending candidate
 * @param request the stored request, or null for an intent the caller sends itself
 * @param firstAttempt when the relay may send it, or null exactly when {@code request} is
 */
public record IntentRow(IntentRecord record, StoredRequest request, Instant firstAttempt) {

  /** Validates the row. */
  public IntentRow {
    Objects.requireNonNull(record, "candidate");
    if (record.state() != IntentState.PENDING) {
      throw new IllegalArgumentException("a candidate must be PENDING");
    }
    if ((request == null) != (firstAttempt == null)) {
      throw new IllegalArgumentException("a stored request needs a first attempt time");
    }
  }

  /** A row for an intent the caller sends itself. */
  public static IntentRow direct(IntentRecord record) {
    return new IntentRow(record, null, null);
  }
}
