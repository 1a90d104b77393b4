package dev.saferetry;

import dev.saferetry.error.ApiException;
import dev.saferetry.error.CallFailedException;
import dev.saferetry.error.IdempotencyKeyReusedException;
import dev.saferetry.error.OutcomeUnknownException;
import dev.saferetry.error.Reason;
import dev.saferetry.error.ResponseBodyException;
import dev.saferetry.idempotency.IdempotencyKey;
import java.time.Duration;
import java.util.List;

/**
 * How the call machinery creates the exceptions of {@code dev.saferetry.error}: from the call's
 * {@link Trail}, through their constructors. Stateless.
 */
final class Errors {
  /** What every exception carries: the key, the intent id, the attempts and the last answer. */
  public record Trail(
      IdempotencyKey key, String intentId, List<Attempt> attempts, ResponseView response) {
    /** Copies the attempts. */
    public Trail {
      attempts = List.copyOf(attempts);
    }

    /** A trail without an answer. */
    public Trail(IdempotencyKey key, String intentId, List<Attempt> attempts) {
      this(key, intentId, attempts, null);
    }
  }

  /** The parsed parts of an error answer, already masked and capped. */
  public record ApiError(int status, String type, String code, String message, String body) {}

  private Errors() {}

  /** A FAILED call that is not an error answer. */
  static CallFailedException failed(Reason reason, String message, Trail trail, Throwable cause) {
    return new CallFailedException(
        reason, message, trail.key(), trail.intentId(), trail.attempts(), trail.response(), cause);
  }

  /** A definitive error answer; a refused reused key if {@code keyReused}. */
  static ApiException rejected(boolean keyReused, ApiError e, Trail trail) {
    return keyReused
        ? new IdempotencyKeyReusedException(
            e.status(),
            e.type(),
            e.code(),
            e.message(),
            e.body(),
            trail.key(),
            trail.intentId(),
            trail.attempts(),
            trail.response())
        : new ApiException(
            e.status(),
            e.type(),
            e.code(),
            e.message(),
            e.body(),
            trail.key(),
            trail.intentId(),
            trail.attempts(),
            trail.response());
  }

  /** An UNKNOWN outcome. */
  static OutcomeUnknownException unknown(
      Reason reason, String message, Duration retryAfter, Trail trail, Throwable cause) {
    return new OutcomeUnknownException(
        reason,
        message,
        retryAfter,
        trail.key(),
        trail.intentId(),
        trail.attempts(),
        trail.response(),
        cause);
  }

  /** A 2xx whose body could not be read. */
  static ResponseBodyException unreadable(
      Reason reason, String message, int status, Trail trail, Throwable cause) {
    return new ResponseBodyException(
        reason,
        message,
        status,
        trail.key(),
        trail.intentId(),
        trail.attempts(),
        trail.response(),
        cause);
  }
}
