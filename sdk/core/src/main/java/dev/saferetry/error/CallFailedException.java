package dev.saferetry.error;

import dev.saferetry.Outcome;
import dev.saferetry.internal.Errors;

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

  CallFailedException(Reason reason, String message, Errors.Trail trail, Throwable cause) {
    super(message, trail, cause);
    this.reason = reason;
  }

  /**
   * Returns why the call failed.
   *
   * @return the reason
   */
  @Override
  public Reason reason() {
    return reason;
  }
}
