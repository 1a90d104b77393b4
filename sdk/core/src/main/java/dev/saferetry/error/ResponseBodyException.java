package dev.saferetry.error;

import dev.saferetry.call.Attempt;
import dev.saferetry.call.Outcome;
import dev.saferetry.call.ResponseView;
import dev.saferetry.idempotency.IdempotencyKey;
import java.util.List;
import java.util.Objects;

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

  /**
   * Creates the exception of a call that succeeded but whose answer could not be read. The SDK's
   * call machinery creates it; a caller may create one to test the code that handles it. The
   * message is completed with the status, the key, the intent id and the attempts.
   *
   * @param reason why the body could not be read: a reason whose outcome is {@link
   *     Outcome#SUCCEEDED}
   * @param message what was wrong with the body, safe to log
   * @param status the 2xx status that was received
   * @param key the key every attempt carried, or null
   * @param intentId the intent id of the call, or null
   * @param attempts the attempts the call made, in order; empty when nothing was sent
   * @param response the last answer the call got, or null
   * @param cause the cause, or null
   * @throws IllegalArgumentException if the reason's outcome is not {@link Outcome#SUCCEEDED}
   */
  public ResponseBodyException(
      Reason reason,
      String message,
      int status,
      IdempotencyKey key,
      String intentId,
      List<Attempt> attempts,
      ResponseView response,
      Throwable cause) {
    super("HTTP " + status + " but " + message, key, intentId, attempts, response, cause);
    if (Objects.requireNonNull(reason, "reason").outcome() != Outcome.SUCCEEDED) {
      throw new IllegalArgumentException(reason + " is not a reason of a succeeded call");
    }
    this.reason = reason;
    this.status = status;
  }

  /** {@return why the body could not be read} */
  @Override
  public Reason reason() {
    return reason;
  }

  /** {@return the 2xx status that was received} */
  public int status() {
    return status;
  }
}
