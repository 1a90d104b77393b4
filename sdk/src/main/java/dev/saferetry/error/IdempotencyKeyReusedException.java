package dev.saferetry.error;

import dev.saferetry.Attempt;
import dev.saferetry.idempotency.IdempotencyKey;
import java.util.List;

/**
 * The server answered 422 — or, as Stripe does, 400 with error type {@code idempotency_error} —
 * because this idempotency key was already used with a different request. Nothing was executed for
 * this request. This is a bug in the caller (a key reused for another intent, or a payload that
 * changed between retries), never something to retry.
 *
 * <p>Instances are immutable and thread-safe.
 */
public final class IdempotencyKeyReusedException extends ApiException {
  private static final long serialVersionUID = 1L;

  /** Creates the exception. */
  public IdempotencyKeyReusedException(
      int status,
      String errorType,
      String errorCode,
      String errorMessage,
      String errorBody,
      IdempotencyKey key,
      String intentId,
      List<Attempt> attempts) {
    super(status, errorType, errorCode, errorMessage, errorBody, key, intentId, attempts);
  }
}
