package dev.saferetry.error;

import dev.saferetry.Attempt;
import dev.saferetry.Outcome;
import dev.saferetry.idempotency.IdempotencyKey;
import java.util.List;
import java.util.Objects;

/**
 * The root of everything a SafeRetry call throws instead of returning a result.
 *
 * <p>Every exception carries the idempotency key (so the caller can retry the same intent), the
 * attempt history as it happened on the wire, and the {@link #outcome() outcome}: {@link
 * Outcome#FAILED} when the request definitely had no effect or was rejected, {@link
 * Outcome#UNKNOWN} when it may have had one. Messages are safe to log: they name statuses, error
 * codes, request ids and the key, never bodies or credentials.
 *
 * <p>The hierarchy is closed:
 *
 * <ul>
 *   <li>{@link ApiException} — a definitive error answer (FAILED); {@link
 *       IdempotencyKeyReusedException} for 422.
 *   <li>{@link OutcomeUnknownException} — retries, deadline or a long server hint ended the call
 *       after an ambiguous failure (UNKNOWN); {@link RequestInProgressException} when the server
 *       still reported the first request in progress; {@link IntentExpiredException} for a pending
 *       intent older than the key retention.
 *   <li>{@link CircuitOpenException} — the breaker is open; no I/O was done.
 *   <li>{@link TransportException} — the request provably never reached the server (FAILED).
 *   <li>{@link ResponseBodyException} — a 2xx whose body could not be read (SUCCEEDED).
 *   <li>{@link IntentMismatchException} — the intent is known with another payload (FAILED, no
 *       I/O).
 * </ul>
 *
 * <p>Instances are immutable and thread-safe.
 */
public abstract sealed class SafeRetryException extends RuntimeException
    permits ApiException,
        OutcomeUnknownException,
        CircuitOpenException,
        TransportException,
        ResponseBodyException,
        IntentMismatchException {
  private static final long serialVersionUID = 1L;

  private final transient IdempotencyKey key;
  private final String intentId;
  private final transient List<Attempt> attempts;
  private final Outcome outcome;

  SafeRetryException(
      String message,
      Outcome outcome,
      IdempotencyKey key,
      String intentId,
      List<Attempt> attempts,
      Throwable cause) {
    super(describe(message, key, intentId, attempts), cause);
    this.outcome = Objects.requireNonNull(outcome, "outcome");
    this.key = key;
    this.intentId = intentId;
    this.attempts = List.copyOf(attempts);
  }

  private static String describe(
      String message, IdempotencyKey key, String intentId, List<Attempt> attempts) {
    StringBuilder sb = new StringBuilder(message);
    sb.append(" [");
    if (key != null) {
      sb.append("idempotency key ").append(key.value()).append(", ");
    }
    if (intentId != null) {
      sb.append("intent ").append(intentId).append(", ");
    }
    sb.append(attempts.size()).append(attempts.size() == 1 ? " attempt" : " attempts");
    if (!attempts.isEmpty()) {
      sb.append(": ").append(attempts);
    }
    return sb.append(']').toString();
  }

  /** Returns the key every attempt carried, or {@code null} for an operation without one. */
  public IdempotencyKey key() {
    return key;
  }

  /** Returns the intent id of the call, or {@code null}. */
  public String intentId() {
    return intentId;
  }

  /** Returns the attempts made by this call, in order; empty when nothing was sent. */
  public List<Attempt> attempts() {
    return attempts;
  }

  /** Returns how the call ended. */
  public Outcome outcome() {
    return outcome;
  }

  /** Returns whether the effect may exist: retry the same intent (same key) later. */
  public boolean isOutcomeUnknown() {
    return outcome == Outcome.UNKNOWN;
  }
}
