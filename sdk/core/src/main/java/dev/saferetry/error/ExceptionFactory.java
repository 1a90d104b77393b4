package dev.saferetry.error;

import dev.saferetry.internal.Errors;
import java.time.Duration;

/** Lets the SDK's call machinery create the exceptions, whose constructors are not public. */
final class ExceptionFactory implements Errors.Factory {

  @Override
  public CallFailedException failed(
      Reason reason, String message, Errors.Trail trail, Throwable cause) {
    if (reason == Reason.REJECTED || reason == Reason.KEY_REUSED) {
      throw new IllegalArgumentException(reason + " is an ApiException");
    }
    return new CallFailedException(reason, message, trail, cause);
  }

  @Override
  public ApiException rejected(boolean keyReused, Errors.ApiError error, Errors.Trail trail) {
    return keyReused
        ? new IdempotencyKeyReusedException(error, trail)
        : new ApiException(Reason.REJECTED, error, trail);
  }

  @Override
  public OutcomeUnknownException unknown(
      Reason reason, String message, Duration retryAfter, Errors.Trail trail, Throwable cause) {
    return new OutcomeUnknownException(reason, message, retryAfter, trail, cause);
  }

  @Override
  public ResponseBodyException unreadable(
      Reason reason, String message, int status, Errors.Trail trail, Throwable cause) {
    return new ResponseBodyException(reason, message, status, trail, cause);
  }
}
