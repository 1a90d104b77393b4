package dev.saferetry;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.saferetry.call.Attempt;
import dev.saferetry.call.ResponseView;
import dev.saferetry.error.ApiException;
import dev.saferetry.error.CallFailedException;
import dev.saferetry.error.IdempotencyKeyReusedException;
import dev.saferetry.error.OutcomeUnknownException;
import dev.saferetry.error.Reason;
import dev.saferetry.error.ResponseBodyException;
import dev.saferetry.error.SafeRetryException;
import dev.saferetry.idempotency.IdempotencyKey;
import dev.saferetry.internal.Redaction;
import java.time.Duration;
import java.util.List;

/**
 * The exceptions a call ends with, made through the public constructors of {@code
 * dev.saferetry.error} from the call's {@link Trail} and explicit facts: whether anything of the
 * intent may have reached the server decides between FAILED (proof that nothing happened) and
 * UNKNOWN. Stateless.
 */
final class Endings {
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

  private Endings() {}

  /** A FAILED call that is not an error answer. */
  static CallFailedException failed(Reason reason, String message, Trail trail, Throwable cause) {
    return new CallFailedException(
        reason, message, trail.key(), trail.intentId(), trail.attempts(), trail.response(), cause);
  }

  // A definitive error answer; a refused reused key if keyReused.
  private static ApiException rejected(boolean keyReused, ApiError e, Trail trail) {
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

  /** The breaker is open: FAILED if nothing of the intent was ever sent, UNKNOWN otherwise. */
  static SafeRetryException circuitOpen(boolean ambiguous, Trail trail) {
    String why = "circuit breaker is open; no further attempt was sent";
    return ambiguous
        ? unknown(Reason.CIRCUIT_OPEN_AFTER_SEND, why, null, trail, null)
        : failed(Reason.CIRCUIT_OPEN, why, trail, null);
  }

  /** The call was cancelled: FAILED if nothing of the intent was ever sent, UNKNOWN otherwise. */
  static SafeRetryException cancelled(boolean ambiguous, String why, Trail trail) {
    return ambiguous
        ? unknown(Reason.CANCELLED_AFTER_SEND, why, null, trail, null)
        : failed(Reason.CANCELLED, why, trail, null);
  }

  /** A definitive error answer; server text masked with {@code redaction}. */
  static ApiException rejected(
      AttemptResult out, boolean keyReused, ObjectMapper mapper, Redaction redaction, Trail trail) {
    int status = out.status();
    String raw = out.response().errorBody();
    Json.ErrorFields f = Json.parseError(mapper, raw);
    // A server may echo a credential back: it never leaves through the exception.
    ApiError error =
        new ApiError(
            status,
            redaction.mask(f.type()),
            redaction.mask(f.code()),
            redaction.mask(f.message()),
            redaction.mask(raw));
    return rejected(keyReused, error, trail);
  }
}
