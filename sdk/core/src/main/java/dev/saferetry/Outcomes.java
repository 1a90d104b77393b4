package dev.saferetry;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.saferetry.error.ApiException;
import dev.saferetry.error.Reason;
import dev.saferetry.error.SafeRetryException;
import dev.saferetry.internal.Redaction;
import java.time.Duration;

/**
 * The exceptions a call ends with, from explicit facts: whether anything of the intent may have
 * reached the server decides between FAILED (proof that nothing happened) and UNKNOWN. Stateless.
 */
final class Outcomes {
  private Outcomes() {}

  /** An ending without a definitive answer: FAILED if nothing was ever sent, UNKNOWN otherwise. */
  static SafeRetryException withoutAnswer(
      boolean ambiguous,
      Reason reason,
      String why,
      Duration hint,
      Throwable cause,
      Errors.Trail trail) {
    if (!ambiguous) {
      return Errors.failed(
          Reason.NOT_SENT, "request never reached the server (" + why + ")", trail, cause);
    }
    return Errors.unknown(reason, why, hint, trail, cause);
  }

  /** The breaker is open: FAILED if nothing of the intent was ever sent, UNKNOWN otherwise. */
  static SafeRetryException circuitOpen(boolean ambiguous, Errors.Trail trail) {
    String why = "circuit breaker is open; no further attempt was sent";
    return ambiguous
        ? Errors.unknown(Reason.CIRCUIT_OPEN_AFTER_SEND, why, null, trail, null)
        : Errors.failed(Reason.CIRCUIT_OPEN, why, trail, null);
  }

  /** The call was cancelled: FAILED if nothing of the intent was ever sent, UNKNOWN otherwise. */
  static SafeRetryException cancelled(boolean ambiguous, String why, Errors.Trail trail) {
    return ambiguous
        ? Errors.unknown(Reason.CANCELLED_AFTER_SEND, why, null, trail, null)
        : Errors.failed(Reason.CANCELLED, why, trail, null);
  }

  /** A definitive error answer; server text masked with {@code redaction}. */
  static ApiException rejected(
      AttemptOutcome out,
      boolean keyReused,
      ObjectMapper mapper,
      Redaction redaction,
      Errors.Trail trail) {
    int status = out.status();
    String raw = out.response().errorBody();
    Json.ErrorFields f = Json.parseError(mapper, raw);
    // A server may echo a credential back: it never leaves through the exception.
    Errors.ApiError error =
        new Errors.ApiError(
            status,
            redaction.mask(f.type()),
            redaction.mask(f.code()),
            redaction.mask(f.message()),
            redaction.mask(raw));
    return Errors.rejected(keyReused, error, trail);
  }
}
