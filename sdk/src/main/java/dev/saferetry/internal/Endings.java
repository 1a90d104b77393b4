package dev.saferetry.internal;

import dev.saferetry.CallResult;
import dev.saferetry.Outcome;
import dev.saferetry.error.ApiException;
import dev.saferetry.error.CircuitOpenException;
import dev.saferetry.error.IdempotencyKeyReusedException;
import dev.saferetry.error.OutcomeUnknownException;
import dev.saferetry.error.RequestInProgressException;
import dev.saferetry.error.ResponseBodyException;
import dev.saferetry.error.SafeRetryException;
import dev.saferetry.error.TransportException;
import dev.saferetry.event.GaveUp;
import dev.saferetry.event.SafeRetryListener;
import dev.saferetry.idempotency.IntentState;
import dev.saferetry.internal.codec.Percent;
import java.io.IOException;
import java.time.Duration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Turns the end of a call into a result or the one exception that describes it. */
final class Endings {
  private static final Logger LOG = LoggerFactory.getLogger("dev.saferetry");

  /** The longest resource id recorded with a completion, in characters; longer ones are absent. */
  static final int MAX_RESOURCE_ID = 1024;

  private final ClientConfig config;
  private final Intents intents;
  private final SafeRetryListener listener;

  Endings(ClientConfig config, Intents intents, SafeRetryListener listener) {
    this.config = config;
    this.intents = intents;
    this.listener = listener;
  }

  <R> CallResult<R> success(CallExecutor.CallState s, AttemptOutcome out, Class<R> type) {
    int status = out.status();
    if (out.oversized()) {
      complete(s, IntentState.SUCCEEDED, status, null);
      throw new ResponseBodyException(
          "the body exceeds the limit of " + config.maxResponseBytes() + " bytes",
          status,
          s.claim.key(),
          s.intentId,
          s.attempts,
          null);
    }
    R value = null;
    String resourceId = null;
    byte[] body = out.body();
    try {
      if (body != null && body.length > 0 && type != Void.class) {
        value = config.mapper().readValue(body, type);
        if (s.claim.record() != null) {
          resourceId = Json.resourceId(config.mapper(), value, body);
        }
      }
    } catch (IOException | IllegalArgumentException e) {
      complete(s, IntentState.SUCCEEDED, status, null);
      throw new ResponseBodyException(
          "the body is not valid JSON for "
              + type.getSimpleName()
              + " ("
              + e.getClass().getSimpleName()
              + ")",
          status,
          s.claim.key(),
          s.intentId,
          s.attempts,
          null);
    }
    complete(s, IntentState.SUCCEEDED, status, resourceId);
    boolean replayed = "true".equalsIgnoreCase(out.response().header("Idempotent-Replayed"));
    return new CallResult<>(value, status, s.claim.key(), s.intentId, replayed, s.attempts);
  }

  SafeRetryException definitive(CallExecutor.CallState s, AttemptOutcome out) {
    if (out.response() == null) {
      return withoutAnswer(
          s, "non-retryable transport failure " + out.failure(), null, out.error());
    }
    int status = out.status();
    complete(s, IntentState.FAILED, status, null);
    String raw = out.response().errorBody();
    Json.ErrorFields f = Json.parseError(config.mapper(), raw);
    boolean keyReused =
        status == 422
            || (status == 400 && "idempotency_error".equals(f.type())); // Stripe's variant
    // A server may echo a credential back: it never leaves through the exception.
    Redaction r = s.redaction;
    String type = r.mask(f.type());
    String code = r.mask(f.code());
    String message = r.mask(f.message());
    String body = r.mask(raw);
    ApiException e =
        keyReused
            ? new IdempotencyKeyReusedException(
                status, type, code, message, body, s.claim.key(), s.intentId, s.attempts)
            : new ApiException(
                status, type, code, message, body, s.claim.key(), s.intentId, s.attempts);
    return gaveUp(s, e);
  }

  /**
   * Records a definitive answer. Recording must never turn the answer into an error: the caller
   * gets what the server said, and an intent whose completion could not be written stays pending,
   * so that a re-drive replays it with the same key. A resource id the store cannot hold is
   * recorded as absent.
   */
  private void complete(
      CallExecutor.CallState s, IntentState state, int status, String resourceId) {
    if (s.claim.record() == null) {
      return;
    }
    String id = storable(resourceId) ? resourceId : null;
    if (id == null && resourceId != null) {
      LOG.warn(
          "resource id of {} characters from {} is not recorded (idempotency key {})",
          resourceId.length(),
          s.op.name(),
          s.claim.key());
    }
    try {
      write(s.claim, state, status, id);
    } catch (RuntimeException first) {
      try {
        if (id == null) {
          throw first;
        }
        write(s.claim, state, status, null); // perhaps the id was what it refused
      } catch (RuntimeException e) {
        LOG.warn(
            "could not record the {} answer of {} (idempotency key {}, intent {}): the intent stays"
                + " pending and a re-drive replays it with the same key",
            status,
            s.op.name(),
            s.claim.key(),
            s.intentId,
            e);
      }
    }
  }

  private void write(Intents.Claim claim, IntentState state, int status, String resourceId) {
    if (state == IntentState.SUCCEEDED) {
      intents.succeeded(claim, status, resourceId);
    } else {
      intents.failed(claim, status);
    }
  }

  /** Whether a resource id fits a record: bounded, printable, text that round-trips exactly. */
  static boolean storable(String id) {
    if (id == null
        || id.isEmpty()
        || id.length() > MAX_RESOURCE_ID
        || id.chars().anyMatch(Character::isISOControl)) {
      return false;
    }
    try {
      Percent.requireWellFormed(id, "resource id");
      return true;
    } catch (IllegalArgumentException unpairedSurrogate) {
      return false;
    }
  }

  SafeRetryException exhausted(CallExecutor.CallState s, String reason, Duration hint) {
    AttemptOutcome last = s.last;
    if (last != null && last.response() != null && last.status() == 409) {
      return gaveUp(s, new RequestInProgressException(hint, s.claim.key(), s.intentId, s.attempts));
    }
    return withoutAnswer(s, reason, hint, last == null ? null : last.error());
  }

  /**
   * Ends a call that got no definitive answer: FAILED if provably nothing of this intent ever
   * reached the server, UNKNOWN otherwise.
   */
  private SafeRetryException withoutAnswer(
      CallExecutor.CallState s, String reason, Duration hint, Throwable cause) {
    if (!s.anyAmbiguous()) {
      return gaveUp(
          s,
          new TransportException(
              "request never reached the server (" + reason + ")",
              Outcome.FAILED,
              s.claim.key(),
              s.intentId,
              s.attempts,
              cause));
    }
    return gaveUp(
        s, new OutcomeUnknownException(reason, hint, s.claim.key(), s.intentId, s.attempts, cause));
  }

  SafeRetryException circuitOpen(CallExecutor.CallState s) {
    Outcome outcome = s.anyAmbiguous() ? Outcome.UNKNOWN : Outcome.FAILED;
    return gaveUp(s, new CircuitOpenException(outcome, s.claim.key(), s.intentId, s.attempts));
  }

  private SafeRetryException gaveUp(CallExecutor.CallState s, SafeRetryException e) {
    if (e.isOutcomeUnknown()) {
      LOG.warn(
          "outcome unknown for {} (idempotency key {}, {} attempts): retry the same intent",
          s.op.name(),
          s.claim.key(),
          s.attempts.size());
    }
    String reason = e.getClass().getSimpleName();
    listener.onGiveUp(
        new GaveUp(s.op.name(), s.intentId, s.claim.key(), e.outcome(), s.attempts.size(), reason));
    return e;
  }
}
