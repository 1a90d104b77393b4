package dev.saferetry.error;

import dev.saferetry.Attempt;
import dev.saferetry.Outcome;
import dev.saferetry.idempotency.IdempotencyKey;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * The call stopped after an ambiguous failure — retries ran out, the deadline passed, a retry
 * budget was spent, or the server asked to wait longer than the configured ceiling — so the effect
 * <b>may or may not exist</b>. This is not a failure: retry the same intent later (same intent id,
 * or the same {@link #key()}), and the server will either perform it once or replay the first
 * outcome.
 *
 * <p>Instances are immutable and thread-safe.
 */
public sealed class OutcomeUnknownException extends SafeRetryException
    permits RequestInProgressException, IntentExpiredException {
  private static final long serialVersionUID = 1L;

  private final transient Duration retryAfter;

  /**
   * Creates the exception.
   *
   * @param reason why the call stopped, safe to log
   * @param retryAfter the server's last hint, or {@code null}
   * @param cause the last transport failure, or {@code null}
   */
  public OutcomeUnknownException(
      String reason,
      Duration retryAfter,
      IdempotencyKey key,
      String intentId,
      List<Attempt> attempts,
      Throwable cause) {
    super(
        reason + "; the effect may exist: retry the same intent with the same key later",
        Outcome.UNKNOWN,
        key,
        intentId,
        attempts,
        cause);
    this.retryAfter = retryAfter;
  }

  /** Returns the server's last {@code Retry-After} hint, if it gave one. */
  public Optional<Duration> retryAfter() {
    return Optional.ofNullable(retryAfter);
  }
}
