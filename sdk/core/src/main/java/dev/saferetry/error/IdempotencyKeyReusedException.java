package dev.saferetry.error;

import dev.saferetry.internal.Errors;

/**
 * The server answered 422 — or, as Stripe does, 400 with error type {@code idempotency_error} —
 * because this idempotency key was already used with a different request. Nothing was executed for
 * this request. This is a bug in the caller (a key reused for another intent, or a payload that
 * changed between retries), never something to retry. Its reason is {@link Reason#KEY_REUSED}.
 *
 * <p>Instances are immutable and thread-safe.
 */
public final class IdempotencyKeyReusedException extends ApiException {
  private static final long serialVersionUID = 1L;

  IdempotencyKeyReusedException(Errors.ApiError error, Errors.Trail trail) {
    super(Reason.KEY_REUSED, error, trail);
  }
}
