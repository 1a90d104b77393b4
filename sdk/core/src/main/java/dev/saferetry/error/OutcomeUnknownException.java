package dev.saferetry.error;

import dev.saferetry.Outcome;
import dev.saferetry.internal.Errors;
import java.time.Duration;
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

  OutcomeUnknownException(
      Reason reason, String message, Duration retryAfter, Errors.Trail trail, Throwable cause) {
    super(
        message
            + (reason.mustReconcile()
                ? "; the effect may exist: reconcile the intent with the provider, a retry will"
                    + " not settle it"
                : "; the effect may exist: retry the same intent with the same key later"),
        trail,
        cause);
    this.reason = reason;
    this.retryAfter = retryAfter;
  }

  /**
   * Returns why the outcome is unknown.
   *
   * @return the reason
   */
  @Override
  public Reason reason() {
    return reason;
  }

  /**
   * Returns the server's last {@code Retry-After} hint, if it gave one.
   *
   * @return the hint, or empty
   */
  public Optional<Duration> retryAfter() {
    return Optional.ofNullable(retryAfter);
  }
}
