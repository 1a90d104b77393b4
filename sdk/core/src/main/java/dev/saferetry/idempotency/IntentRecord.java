package dev.saferetry.idempotency;

import java.time.Duration;
import java.time.Instant;
import java.util.Objects;

/**
 * What a {@link KeyStore} keeps about one intent: its key and a fingerprint of the request, never
 * the request itself.
 *
 * <p>Every text field must be text a store can keep exactly (well-formed Unicode: no unpaired
 * surrogate), so that the record read back after a restart is the record written.
 *
 * <p>Instances are immutable and thread-safe.
 *
 * @param scope the tenant and operation the intent id is unique in
 * @param intentId the caller's name for the logical operation, e.g. {@code "order-123/charge"}
 * @param key the idempotency key minted for the intent
 * @param fingerprint hex SHA-256 of method, path and canonical JSON body; never the raw payload
 * @param state the lifecycle state
 * @param createdAt when the key was recorded
 * @param expiresAt when the record stops protecting the intent (created plus retention)
 * @param status the HTTP status of the definitive answer, or 0 while {@link IntentState#PENDING}
 * @param resourceId the id of the resource the answer created, or {@code null}
 */
public record IntentRecord(
    IntentScope scope,
    String intentId,
    IdempotencyKey key,
    String fingerprint,
    IntentState state,
    Instant createdAt,
    Instant expiresAt,
    int status,
    String resourceId) {

  /** The longest intent id accepted, in characters. */
  public static final int MAX_INTENT_ID_LENGTH = 255;

  /**
   * The longest retention accepted: far beyond any server's key retention, and never overflowing.
   */
  public static final Duration MAX_RETENTION = Duration.ofDays(3650);

  /**
   * Validates the record.
   *
   * @param scope the tenant and operation the intent id is unique in
   * @param intentId the caller's name for the logical operation, e.g. {@code "order-123/charge"}
   * @param key the idempotency key minted for the intent
   * @param fingerprint hex SHA-256 of method, path and canonical JSON body; never the raw payload
   * @param state the lifecycle state
   * @param createdAt when the key was recorded
   * @param expiresAt when the record stops protecting the intent (created plus retention)
   * @param status the HTTP status of the definitive answer, or 0 while {@link IntentState#PENDING}
   * @param resourceId the id of the resource the answer created, or {@code null}
   * @throws IllegalArgumentException if the intent id is not acceptable (see {@link
   *     #checkIntentId}), a text field is not well-formed Unicode, the expiry precedes the
   *     creation, or a pending record carries a status
   */
  public IntentRecord {
    Objects.requireNonNull(scope, "scope");
    Objects.requireNonNull(intentId, "intentId");
    Objects.requireNonNull(key, "key");
    Objects.requireNonNull(fingerprint, "fingerprint");
    Objects.requireNonNull(state, "state");
    Objects.requireNonNull(createdAt, "createdAt");
    Objects.requireNonNull(expiresAt, "expiresAt");
    checkIntentId(intentId);
    RecordText.checkWellFormed("fingerprint", fingerprint);
    if (resourceId != null) {
      RecordText.checkWellFormed("resourceId", resourceId);
    }
    if (expiresAt.isBefore(createdAt)) {
      throw new IllegalArgumentException("expiresAt precedes createdAt");
    }
    if (state == IntentState.PENDING && status != 0) {
      throw new IllegalArgumentException("a pending intent has no status");
    }
  }

  /**
   * {@return a new pending record that expires {@code retention} after {@code createdAt}}
   *
   * @param scope the scope
   * @param intentId the intent id
   * @param key the key
   * @param fingerprint the fingerprint
   * @param createdAt the created at
   * @param retention the retention
   * @throws IllegalArgumentException if the retention is negative or the expiry would be beyond the
   *     largest {@link Instant}, or any field is not acceptable
   */
  public static IntentRecord pending(
      IntentScope scope,
      String intentId,
      IdempotencyKey key,
      String fingerprint,
      Instant createdAt,
      Duration retention) {
    Objects.requireNonNull(retention, "retention");
    Objects.requireNonNull(createdAt, "createdAt");
    if (retention.isNegative()) {
      throw new IllegalArgumentException("retention must not be negative");
    }
    if (beyondEndOfTime(createdAt, retention)) {
      throw new IllegalArgumentException("createdAt plus retention is beyond the end of time");
    }
    return new IntentRecord(
        scope,
        intentId,
        key,
        fingerprint,
        IntentState.PENDING,
        createdAt,
        createdAt.plus(retention),
        0,
        null);
  }

  // Whether from + amount lies beyond Instant.MAX, decided in whole seconds and nanoseconds:
  // Duration.between(from, Instant.MAX) would overflow its nanosecond count and throw internally on
  // every call, which made this check the hottest spot of a call.
  private static boolean beyondEndOfTime(Instant from, Duration amount) {
    long secondsLeft = Instant.MAX.getEpochSecond() - from.getEpochSecond();
    if (amount.getSeconds() != secondsLeft) {
      return amount.getSeconds() > secondsLeft;
    }
    return from.getNano() + amount.getNano() > Instant.MAX.getNano();
  }

  /**
   * Checks an intent id: 1 to {@value #MAX_INTENT_ID_LENGTH} characters, not blank, well-formed
   * Unicode (no unpaired surrogate: two ids differing only there would be one id once encoded), no
   * control characters.
   *
   * @param intentId the intent id
   * @throws IllegalArgumentException if the id is not acceptable
   */
  public static void checkIntentId(String intentId) {
    RecordText.check("intent id", intentId, MAX_INTENT_ID_LENGTH);
  }

  /**
   * Checks a retention: positive and at most {@link #MAX_RETENTION}.
   *
   * @param retention the retention
   * @param name the parameter's name, used in the message
   * @throws IllegalArgumentException if the retention is not acceptable
   */
  public static void checkRetention(String name, Duration retention) {
    Objects.requireNonNull(retention, name);
    if (retention.isNegative() || retention.isZero() || retention.compareTo(MAX_RETENTION) > 0) {
      throw new IllegalArgumentException(
          name + " must be positive and at most " + MAX_RETENTION.toDays() + " days");
    }
  }

  /**
   * {@return this record completed with a definitive answer}
   *
   * @param outcome the outcome
   * @param status the status
   * @param resourceId the resource id
   */
  public IntentRecord complete(IntentState outcome, int status, String resourceId) {
    if (outcome == IntentState.PENDING) {
      throw new IllegalArgumentException("a completion must be SUCCEEDED or FAILED");
    }
    return new IntentRecord(
        scope, intentId, key, fingerprint, outcome, createdAt, expiresAt, status, resourceId);
  }

  /**
   * {@return whether the record no longer protects the intent at {@code now}}
   *
   * @param now the time to judge at
   */
  public boolean isExpired(Instant now) {
    return !now.isBefore(expiresAt);
  }
}
