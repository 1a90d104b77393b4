package dev.saferetry.error;

import dev.saferetry.Outcome;
import dev.saferetry.internal.Errors;

/**
 * The call {@link Outcome#SUCCEEDED} — the server answered 2xx, the effect exists — but the body
 * could not be turned into the response type: not JSON, truncated, of the wrong shape ({@link
 * Reason#BODY_UNREADABLE}), or larger than the client's limit ({@link Reason#BODY_TOO_LARGE}). Do
 * not retry as if it had failed: calling the same intent again makes the server replay the stored
 * response.
 *
 * <p>Instances are immutable and thread-safe.
 */
public final class ResponseBodyException extends SafeRetryException {
  private static final long serialVersionUID = 1L;

  /** Why the body could not be read. */
  private final Reason reason;

  /** The 2xx status. */
  private final int status;

  ResponseBodyException(
      Reason reason, String message, int status, Errors.Trail trail, Throwable cause) {
    super("HTTP " + status + " but " + message, trail, cause);
    this.reason = reason;
    this.status = status;
  }

  /**
   * Returns why the body could not be read.
   *
   * @return the reason
   */
  @Override
  public Reason reason() {
    return reason;
  }

  /**
   * Returns the 2xx status that was received.
   *
   * @return the status
   */
  public int status() {
    return status;
  }
}
