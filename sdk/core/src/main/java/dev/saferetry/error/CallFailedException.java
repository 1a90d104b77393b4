package dev.saferetry.error;

import dev.saferetry.call.Attempt;
import dev.saferetry.call.Outcome;
import dev.saferetry.call.ResponseView;
import dev.saferetry.idempotency.IdempotencyKey;
import java.util.List;
import java.util.Objects;

/**
 * The call {@link Outcome#FAILED}: the SDK holds proof that it had no effect — a definitive error
 * answer ({@link ApiException}), or the certainty that nothing of the intent reached the server.
 * The {@link #reason()} says which.
 *
 * <p>Instances are immutable and thread-safe.
 */
public sealed class CallFailedException extends SafeRetryException permits ApiException {
  private static final long serialVersionUID = 1L;

  /** Why the call failed. */
  private final Reason reason;

  /**
   * Creates the exception of a call that failed without an error answer. The SDK's call machinery
   * creates it; a caller may create one to test the code that handles it. The message is completed
   * with the key, the intent id and the attempts.
   *
   * @param reason why the call failed: a reason whose outcome is {@link Outcome#FAILED}, other than
   *     {@link Reason#REJECTED} and {@link Reason#KEY_REUSED} (an {@link ApiException} carries
   *     those)
   * @param message what happened, safe to log
   * @param key the key every attempt carried, or null
   * @param intentId the intent id of the call, or null
   * @param attempts the attempts the call made, in order; empty when nothing was sent
   * @param response the last answer the call got, or null
   * @param cause the cause, or null
   * @throws IllegalArgumentException if the reason does not belong here
   */
  public CallFailedException(
      Reason reason,
      String message,
      IdempotencyKey key,
      String intentId,
      List<Attempt> attempts,
      ResponseView response,
      Throwable cause) {
    super(message, key, intentId, attempts, response, cause);
    if (Objects.requireNonNull(reason, "reason").outcome() != Outcome.FAILED) {
      throw new IllegalArgumentException(reason + " is not a reason of a failed call");
    }
    if (getClass() == CallFailedException.class
        && (reason == Reason.REJECTED || reason == Reason.KEY_REUSED)) {
      throw new IllegalArgumentException(reason + " is an ApiException");
    }
    this.reason = reason;
  }

  /** {@return why the call failed} */
  @Override
  public Reason reason() {
    return reason;
  }
}
