package dev.saferetry.error;

import dev.saferetry.Attempt;
import dev.saferetry.idempotency.IdempotencyKey;
import java.time.Duration;
import java.util.List;

/**
 * Retries ran out while the server still answered 409: a request with this key is in progress
 * (another thread, process or an earlier attempt of this call). Its effect is unknown until it
 * finishes; retry the same intent later.
 *
 * <p>Instances are immutable and thread-safe.
 */
public final class RequestInProgressException extends OutcomeUnknownException {
  private static final long serialVersionUID = 1L;

  /** Creates the exception. */
  public RequestInProgressException(
      Duration retryAfter, IdempotencyKey key, String intentId, List<Attempt> attempts) {
    super(
        "HTTP 409: a request with this idempotency key is still in progress",
        retryAfter,
        key,
        intentId,
        attempts,
        null);
  }
}
