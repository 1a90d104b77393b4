package dev.saferetry.error;

import dev.saferetry.Attempt;
import dev.saferetry.Outcome;
import dev.saferetry.idempotency.IdempotencyKey;
import java.util.List;

/**
 * The server answered 2xx — the effect exists — but the body could not be turned into the response
 * type: not JSON, truncated, of the wrong shape, or larger than the client's limit. The outcome is
 * {@link Outcome#SUCCEEDED}; do not retry as if it had failed. Calling the same intent again makes
 * the server replay the stored response.
 *
 * <p>Instances are immutable and thread-safe.
 */
public final class ResponseBodyException extends SafeRetryException {
  private static final long serialVersionUID = 1L;

  private final int status;

  /** Creates the exception. */
  public ResponseBodyException(
      String reason,
      int status,
      IdempotencyKey key,
      String intentId,
      List<Attempt> attempts,
      Throwable cause) {
    super("HTTP " + status + " but " + reason, Outcome.SUCCEEDED, key, intentId, attempts, cause);
    this.status = status;
  }

  /** Returns the 2xx status that was received. */
  public int status() {
    return status;
  }
}
