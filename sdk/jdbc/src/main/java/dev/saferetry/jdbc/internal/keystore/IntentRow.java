package dev.saferetry.jdbc.internal.keystore;

import dev.saferetry.idempotency.IntentRecord;
import dev.saferetry.idempotency.IntentState;
import dev.saferetry.idempotency.StoredRequest;
import java.time.Duration;
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
 * @param seal the keys that seal the stored request ({@link RowSeal#none()} without one)
 */
public record IntentRow(
    IntentRecord record, StoredRequest request, Instant firstAttempt, RowSeal seal) {

  /** Validates the row. */
  public IntentRow {
    Objects.requireNonNull(record, "candidate");
    Objects.requireNonNull(seal, "seal");
    if (record.state() != IntentState.PENDING) {
      throw new IllegalArgumentException("a candidate must be PENDING");
    }
    if ((request == null) != (firstAttempt == null)) {
      throw new IllegalArgumentException("a stored request needs a first attempt time");
    }
  }

  /**
   * {@return this row as recorded at the database's time {@code now}} The record is created at
   * {@code now} and expires the candidate's retention ({@code expiresAt - createdAt}) after it; the
   * first attempt comes as long after {@code now} as the candidate put it after its creation (at
   * once when it put it before). The caller's clock thus sets durations only, never instants.
   */
  public IntentRow at(Instant now) {
    Objects.requireNonNull(now, "now");
    IntentRecord r = record;
    Duration retention = Duration.between(r.createdAt(), r.expiresAt());
    IntentRecord stamped =
        new IntentRecord(
            r.scope(),
            r.intentId(),
            r.key(),
            r.fingerprint(),
            r.state(),
            now,
            plus(now, retention),
            r.status(),
            r.resourceId());
    Instant first = null;
    if (firstAttempt != null) {
      Duration delay = Duration.between(r.createdAt(), firstAttempt);
      first = delay.isNegative() ? now : plus(now, delay);
    }
    return new IntentRow(stamped, request, first, seal);
  }

  /** {@code t + d}, refused (as a time the table cannot hold) past the last instant. */
  private static Instant plus(Instant t, Duration d) {
    try {
      return t.plus(d);
    } catch (ArithmeticException | java.time.DateTimeException e) {
      throw new IllegalArgumentException(
          "the intent's retention or first attempt lies beyond what the JDBC key store holds");
    }
  }

  /** A row for an intent the caller sends itself. */
  public static IntentRow direct(IntentRecord record) {
    return new IntentRow(record, null, null, RowSeal.none());
  }
}
