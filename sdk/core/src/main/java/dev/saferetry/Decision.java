package dev.saferetry;

import dev.saferetry.error.Reason;
import dev.saferetry.resilience.RetryClassifier;
import dev.saferetry.resilience.RetryPolicy;
import dev.saferetry.resilience.TransportFailure;
import java.time.Duration;
import java.time.Instant;
import java.util.function.IntFunction;

/**
 * The one retry decision: from what one attempt produced and where the call stands, what happens
 * next — wait and attempt again, succeed, or end with a reason. A pure function: it reads its
 * arguments and nothing else, changes nothing, and the same facts always give the same step.
 *
 * <p>What an answer proves decides how a call ends; a should-retry header or a replay marker only
 * decides whether another attempt follows. An answer ends FAILED only when it proves the request
 * had no effect (a 4xx the classifier does not retry) and no earlier attempt of the call may have
 * been executed; a redirect, a 5xx or a status the SDK retries never ends FAILED.
 *
 * <p>The rules, in order: a 2xx succeeds. An error answer is first read for the provider's "already
 * created" conflict (a success carrying the id, or UNKNOWN at once when the id is unusable), then a
 * redirect (UNKNOWN at once: never followed). An answer that proves nothing ends at once when it is
 * replayed as the key's stored result, when a should-retry header says false, or when the
 * classifier does not retry it; otherwise a replayed rejection is final, a should-retry header
 * decides, a documented temporary error is retried, and the classifier decides. A transport failure
 * is retried unless it is a failure after the request was handed over that is neither a timeout, a
 * reset nor an early end. A retry happens only while attempts are left, the server's {@code
 * Retry-After} is within the ceiling, the breaker is not open, the wait ends before the deadline,
 * and the budget has a token — checked in that order.
 */
final class Decision {
  private Decision() {}

  /**
   * What the call knows when it decides.
   *
   * @param attempt the number of the attempt just made, from 1
   * @param maxAttempts the most attempts the call may make
   * @param answer the attempt's HTTP answer, or null after a transport failure
   * @param failure the transport failure, or null when an answer arrived
   * @param keyed whether the request carried an idempotency key (a replay marker counts only then)
   * @param earlierMayHaveExecuted whether an earlier attempt of this call may have been executed
   * @param anythingMayHaveArrived whether anything of the intent may have reached the server: this
   *     call's attempts, or an earlier call that left it pending
   * @param now the time of the decision
   * @param deadline when the call's last attempt must have started
   * @param breakerOpen whether the circuit breaker is open
   * @param budgetLeft whether the retry budget holds a token for one more retry
   */
  record Facts(
      int attempt,
      int maxAttempts,
      RawResponse answer,
      TransportFailure failure,
      boolean keyed,
      boolean earlierMayHaveExecuted,
      boolean anythingMayHaveArrived,
      Instant now,
      Instant deadline,
      boolean breakerOpen,
      boolean budgetLeft) {}

  /**
   * The client's rules the decision applies.
   *
   * @param policy attempts, deadline and the {@code Retry-After} ceiling
   * @param rules the provider's rules for reading answers
   * @param classifier which error answers may be retried
   * @param backoff the wait before retry n when the server gave no hint
   */
  record Rules(
      RetryPolicy policy,
      ResponseRules rules,
      RetryClassifier classifier,
      IntFunction<Duration> backoff) {}

  /** What follows an attempt. */
  sealed interface Next permits Succeed, Retry, End {}

  /**
   * The call succeeded.
   *
   * @param existingResourceId the id the provider's "already created" conflict names, or null for a
   *     2xx
   */
  record Succeed(String existingResourceId) implements Next {}

  /**
   * Another attempt follows after {@code delay}.
   *
   * @param serverHint whether the delay is the server's {@code Retry-After}
   */
  record Retry(Duration delay, boolean serverHint) implements Next {}

  /**
   * The call ends without a result.
   *
   * @param reason a FAILED or an UNKNOWN {@link Reason}; {@link Reason#REJECTED} and {@link
   *     Reason#KEY_REUSED} for a definitive error answer
   * @param why what happened, in words safe to log
   * @param retryAfter the server's delay hint, or null
   * @param lostAnswer whether retries stopped after an answer that may have been lost (the breaker
   *     then counts the call as one failure)
   * @param retriesStopped whether the attempt could have been retried but a limit stopped it (as
   *     opposed to an answer that ends the call at once)
   */
  record End(
      Reason reason, String why, Duration retryAfter, boolean lostAnswer, boolean retriesStopped)
      implements Next {}

  /** Decides what follows an attempt. */
  static Next decide(Facts f, Rules r) {
    if (f.answer() == null) {
      if (f.failure() == TransportFailure.OTHER) {
        return withoutAnswer(
            f, Reason.TRANSPORT_FAILURE, "non-retryable transport failure " + f.failure());
      }
      return retry(f, r, null, null);
    }
    RawResponse a = f.answer();
    int status = a.status();
    if (status >= 200 && status < 300) {
      return new Succeed(null);
    }
    String existing = r.rules().existingResourceId(a).orElse(null);
    if (existing != null) {
      return new Succeed(existing);
    }
    if (r.rules().isExistingResourceConflict(a)) {
      return unknown(
          Reason.EXISTING_RESOURCE_ID_UNUSABLE,
          "HTTP "
              + status
              + ": the provider says the resource already exists but names no usable"
              + " id");
    }
    if (status < 400) {
      return unknown(
          Reason.REDIRECTED,
          "HTTP "
              + status
              + ": a redirect is never followed and does not prove the request had no effect");
    }
    boolean classifiedRetry = r.classifier().retries(status, a.errorBody());
    boolean replay = f.keyed() && r.rules().isReplay(a);
    Boolean hint = RetryHints.shouldRetry(a, r.rules().shouldRetryHeaders());
    boolean provesNoEffect = !classifiedRetry && status < 500;
    if (!provesNoEffect) {
      if (replay) {
        return unknown(
            Reason.PROVIDER_STORED_ERROR,
            "HTTP "
                + status
                + " marked as a replay ("
                + r.rules().replay().header()
                + "): the provider stored this error as the result of the idempotency key and"
                + " answers every retry with it");
      }
      if (hint == Boolean.FALSE) {
        return unknown(
            Reason.SERVER_SAID_DO_NOT_RETRY,
            "HTTP "
                + status
                + " with a should-retry header of false: the server asked not to retry an answer"
                + " that does not prove the request had no effect");
      }
      if (hint == null && !classifiedRetry && !r.rules().isRetryableError(a)) {
        return unknown(
            Reason.SERVER_ERROR_NOT_RETRIED,
            "HTTP "
                + status
                + ", a server error the retry classifier does not retry: it does not prove the"
                + " request had no effect");
      }
    }
    boolean retries;
    if (replay) {
      retries = false; // the provider's stored rejection for the key: a retry gets it again
    } else if (hint != null) {
      retries = hint;
    } else {
      retries = classifiedRetry || r.rules().isRetryableError(a);
    }
    if (!retries) {
      if (!replay && f.earlierMayHaveExecuted()) {
        return unknown(
            Reason.REJECTED_AFTER_AMBIGUOUS_ATTEMPT,
            "HTTP "
                + status
                + " after an earlier attempt of this call that may have been executed: the"
                + " rejection proves only that this attempt had no effect");
      }
      Reason why = r.rules().isKeyReused(a) ? Reason.KEY_REUSED : Reason.REJECTED;
      return new End(why, "HTTP " + status, null, false, false);
    }
    return retry(f, r, a, RetryHints.retryAfter(a, f.now()));
  }

  // A retryable attempt: another one follows unless a limit stops the retries.
  private static Next retry(Facts f, Rules r, RawResponse a, Duration hint) {
    Duration delay = null;
    Stop stop;
    if (f.attempt() >= f.maxAttempts()) {
      stop = Stop.RETRIES_EXHAUSTED;
    } else if (hint != null && hint.compareTo(r.policy().maxRetryAfter()) > 0) {
      stop = Stop.RETRY_AFTER_TOO_LONG;
    } else {
      delay = hint != null ? hint : r.backoff().apply(f.attempt());
      if (f.breakerOpen()) {
        stop = Stop.CIRCUIT_OPEN;
      } else if (delay.compareTo(Duration.between(f.now(), f.deadline())) >= 0) {
        stop = Stop.DEADLINE;
      } else if (!f.budgetLeft()) {
        stop = Stop.BUDGET;
      } else {
        return new Retry(delay, hint != null);
      }
    }
    if (stop == Stop.CIRCUIT_OPEN) {
      return circuitOpen(f);
    }
    boolean lost = a == null && f.failure().mayHaveReachedServer();
    if (a != null && r.rules().isInProgress(a)) {
      return new End(
          Reason.IN_PROGRESS,
          "HTTP 409: a request with this key is still in progress",
          hint,
          lost,
          true);
    }
    String why = whyStopped(stop, hint, f.attempt(), r.policy());
    End end = withoutAnswer(f, stop.reason, why);
    return new End(end.reason(), end.why(), hint, lost, true);
  }

  /** The breaker is open: FAILED if nothing of the intent was ever sent, UNKNOWN otherwise. */
  static End circuitOpen(Facts f) {
    String why = "circuit breaker is open; no further attempt was sent";
    return new End(
        f.anythingMayHaveArrived() ? Reason.CIRCUIT_OPEN_AFTER_SEND : Reason.CIRCUIT_OPEN,
        why,
        null,
        false,
        true);
  }

  // An ending without a definitive answer: FAILED if nothing was ever sent, UNKNOWN otherwise.
  private static End withoutAnswer(Facts f, Reason reason, String why) {
    if (!f.anythingMayHaveArrived()) {
      return new End(
          Reason.NOT_SENT, "request never reached the server (" + why + ")", null, false, false);
    }
    return new End(reason, why, null, false, false);
  }

  private static End unknown(Reason reason, String why) {
    return new End(reason, why, null, false, false);
  }

  // Why retries stopped before the policy's attempts ran out, with the reason it ends on.
  private enum Stop {
    RETRIES_EXHAUSTED(Reason.RETRIES_EXHAUSTED),
    RETRY_AFTER_TOO_LONG(Reason.RETRY_AFTER_TOO_LONG),
    CIRCUIT_OPEN(Reason.CIRCUIT_OPEN_AFTER_SEND),
    DEADLINE(Reason.DEADLINE_EXCEEDED),
    BUDGET(Reason.RETRY_BUDGET_EXHAUSTED);

    private final Reason reason;

    Stop(Reason reason) {
      this.reason = reason;
    }
  }

  private static String whyStopped(Stop stop, Duration hint, int attempts, RetryPolicy policy) {
    switch (stop) {
      case RETRY_AFTER_TOO_LONG:
        return "server asked to wait "
            + hint.toSeconds()
            + " s, longer than the configured ceiling";
      case DEADLINE:
        return "deadline of "
            + policy.deadline().toMillis()
            + " ms would pass before the next attempt";
      case BUDGET:
        return "the client's retry budget is spent";
      default:
        return "retries exhausted after " + attempts + " attempts";
    }
  }

  /**
   * Whether the circuit breaker counts an attempt as a failure: a transport failure, a 429 or a
   * 500, 502, 503 or 504 that is not replayed as the key's stored result. Other answers prove the
   * server is up. A lost answer is judged when the call ends (see {@link End#lostAnswer()}).
   */
  static boolean breakerFailure(RawResponse answer, boolean replayed) {
    if (answer == null) {
      return true;
    }
    int s = answer.status();
    return !replayed && (s == 429 || s == 500 || s == 502 || s == 503 || s == 504);
  }

  /**
   * Whether a transport failure may have lost the answer: retried, after the request may have
   * reached the server (reset, unexpected end, read or call timeout).
   */
  static boolean isLostAnswer(TransportFailure failure) {
    return failure != null && failure != TransportFailure.OTHER && failure.mayHaveReachedServer();
  }

  /**
   * Whether an attempt may have been executed: a failure after the request may have reached the
   * server, or an answer that does not prove the request had no effect (a redirect, 408, 409, 429
   * or a 5xx).
   */
  static boolean mayHaveExecuted(TransportFailure failure, int status) {
    if (failure != null) {
      return failure.mayHaveReachedServer();
    }
    return !provesNoEffect(status);
  }

  /**
   * Whether a non-2xx status proves that the request had no effect: a 4xx other than 408, 409 and
   * 429. A redirect, a 408, 409 or 429 and any 5xx prove nothing.
   */
  static boolean provesNoEffect(int status) {
    return status >= 400 && status < 500 && status != 408 && status != 409 && status != 429;
  }
}
