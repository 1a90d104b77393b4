package dev.saferetry.error;

import dev.saferetry.call.Attempt;
import dev.saferetry.call.Outcome;
import dev.saferetry.call.ResponseView;
import dev.saferetry.idempotency.IdempotencyKey;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The call's outcome is {@link Outcome#UNKNOWN}: a request may have reached the server and nothing
 * proves whether it had an effect — retries ran out, the deadline passed, the retry budget or the
 * circuit breaker stopped them, the server asked to wait too long, the intent could not be re-sent
 * safely, or the provider answered in a way that proves nothing. The {@link #reason()} says which.
 * This is not a failure: retry the same intent later (same intent id, or the same {@link #key()}),
 * and the server will either perform it once or replay the first outcome — unless the reason
 * {@linkplain Reason#mustReconcile() must be reconciled}: then a retry cannot settle it, and the
 * intent is looked up at the provider instead.
 *
 * <p>Instances are immutable and thread-safe.
 */
public final class OutcomeUnknownException extends SafeRetryException {
  private static final long serialVersionUID = 1L;

  /** Why the outcome is unknown. */
  private final Reason reason;

  private final transient Duration retryAfter;

  /**
   * Creates the exception of a call whose outcome is unknown. The SDK's call machinery creates it;
   * a caller may create one to test the code that handles it. The message is completed with what to
   * do (retry or reconcile, as the reason says), the key, the intent id and the attempts.
   *
   * @param reason why the outcome is unknown: a reason whose outcome is {@link Outcome#UNKNOWN}
   * @param message what happened, safe to log
   * @param retryAfter the server's last {@code Retry-After} hint, or null
   * @param key the key every attempt carried, or null
   * @param intentId the intent id of the call, or null
   * @param attempts the attempts the call made, in order; empty when nothing was sent
   * @param response the last answer the call got, or null
   * @param cause the cause, or null
   * @throws IllegalArgumentException if the reason's outcome is not {@link Outcome#UNKNOWN}
   */
  public OutcomeUnknownException(
      Reason reason,
      String message,
      Duration retryAfter,
      IdempotencyKey key,
      String intentId,
      List<Attempt> attempts,
      ResponseView response,
      Throwable cause) {
    super(
        message
            + (Objects.requireNonNull(reason, "reason").mustReconcile()
                ? "; the effect may exist: reconcile the intent with the provider, a retry will"
                    + " not settle it"
                : "; the effect may exist: retry the same intent with the same key later"),
        key,
        intentId,
        attempts,
        response,
        cause);
    if (reason.outcome() != Outcome.UNKNOWN) {
      throw new IllegalArgumentException(reason + " is not a reason of an unknown outcome");
    }
    this.reason = reason;
    this.retryAfter = retryAfter;
  }

  /** {@return why the outcome is unknown} */
  @Override
  public Reason reason() {
    return reason;
  }

  /** {@return the server's last {@code Retry-After} hint, if it gave one} */
  public Optional<Duration> retryAfter() {
    return Optional.ofNullable(retryAfter);
  }
}
