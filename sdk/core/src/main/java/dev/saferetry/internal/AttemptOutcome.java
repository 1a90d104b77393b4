package dev.saferetry.internal;

import dev.saferetry.Attempt;
import dev.saferetry.error.UnknownReason;
import dev.saferetry.resilience.AttemptResponse;
import dev.saferetry.resilience.RetryClassifier;
import dev.saferetry.resilience.RetryPolicy;
import dev.saferetry.resilience.TransportFailure;
import dev.saferetry.resilience.Verdict;
import java.io.IOException;
import java.time.Clock;
import java.time.Duration;

/**
 * What one attempt produced, classified. Either {@code response} or {@code error} is set.
 *
 * @param attempt the wire record
 * @param response the HTTP answer, or null after a transport failure
 * @param body the body bytes (null after a transport failure or when {@code oversized}; an error
 *     body cut at 64 KiB)
 * @param oversized whether a 2xx body exceeded the client's limit
 * @param error the transport failure's exception, or null
 * @param verdict the classification after the provider's rules: FAIL also for an answer that ends
 *     the call at once without proving anything ({@code unsettled})
 * @param retryAfter the server's delay hint, or null
 * @param existingResourceId the id the provider's "already created" conflict names, or null
 * @param unsettled why an answer that does not prove the request had no effect ends the call at
 *     once (UNKNOWN, intent left pending), or null
 */
record AttemptOutcome(
    Attempt attempt,
    AttemptResponse response,
    byte[] body,
    boolean oversized,
    IOException error,
    Verdict verdict,
    Duration retryAfter,
    String existingResourceId,
    Unsettled unsettled) {

  /**
   * An answer that stops the retries but proves nothing about the request's effect: the call ends
   * UNKNOWN for {@code reason}, explained by {@code why} (words safe to log).
   */
  record Unsettled(UnknownReason reason, String why) {}

  TransportFailure failure() {
    return attempt.failure();
  }

  int status() {
    return attempt.status();
  }

  /**
   * Whether this is a lost or late answer: a retryable failure after the request may have reached
   * the server (reset, unexpected end, read or call timeout).
   */
  boolean isLostAnswer() {
    return response == null && verdict == Verdict.RETRY && failure().mayHaveReachedServer();
  }

  /** Whether the provider answered with the resource an earlier request of the intent created. */
  boolean isExistingResource() {
    return existingResourceId != null;
  }

  /**
   * Classifies what the wire returned: the classifier's verdict, then the provider's rules — an
   * "already created" conflict is a success, a replayed error is final, a should-retry header
   * decides whether to retry, an error body the provider documents as temporary is retried — and
   * the server's delay hint. A replay marker counts only on a request that carried a key: it says
   * the answer is the stored result of that key.
   */
  static AttemptOutcome classify(
      Attempt attempt,
      Wire.Sent sent,
      boolean keyed,
      RetryClassifier classifier,
      RetryPolicy policy,
      ResponseRules rules,
      Clock clock) {
    if (sent.raw() == null) {
      Verdict v = classifier.classify(sent.failure());
      return new AttemptOutcome(attempt, null, null, false, sent.error(), v, null, null, null);
    }
    AttemptResponse response = sent.raw().response();
    Verdict v = classifier.classify(response);
    String existing = null;
    Unsettled unsettled = null;
    if (v != Verdict.SUCCEEDED) {
      existing = rules.existingResourceId(response).orElse(null);
      if (existing != null) {
        v = Verdict.SUCCEEDED;
      } else if (rules.isExistingResourceConflict(response)) {
        v = Verdict.FAIL;
        unsettled =
            new Unsettled(
                UnknownReason.EXISTING_RESOURCE_ID_UNUSABLE,
                "HTTP "
                    + response.status()
                    + ": the provider says the resource already exists but names no usable id");
      } else if (response.status() >= 300 && response.status() < 400) {
        v = Verdict.FAIL;
        unsettled =
            new Unsettled(
                UnknownReason.REDIRECTED,
                "HTTP "
                    + response.status()
                    + ": a redirect is never followed and does not prove the request had no"
                    + " effect");
      } else {
        boolean replay = keyed && rules.isReplay(response);
        unsettled = unsettled(v, response, replay, policy, rules);
        v = unsettled != null ? Verdict.FAIL : afterHints(v, response, replay, policy, rules);
      }
    }
    Duration hint = v == Verdict.RETRY ? RetryHints.retryAfter(response, clock) : null;
    return new AttemptOutcome(
        attempt,
        response,
        sent.raw().body(),
        sent.raw().oversized(),
        null,
        v,
        hint,
        existing,
        unsettled);
  }

  /**
   * Whether an error answer proves that the request had no effect: the classifier calls it final
   * and it is not a server error. A 5xx never proves it, whatever the classifier says, and neither
   * does an answer the classifier retries (408, 409, 429, 500, 502, 503, 504): such a status may
   * stop the retries, but the call then ends UNKNOWN, never FAILED.
   */
  private static boolean provesNoEffect(Verdict classified, AttemptResponse response) {
    return classified == Verdict.FAIL && response.status() < 500;
  }

  /**
   * Why an error answer that proves nothing ends the call at once, or null when it does not: the
   * provider replays it as the key's stored result (every retry gets it again), the server asked
   * not to retry, or the classifier does not retry this server error. A hint or a replay may stop
   * the retries; what the status proves decides the outcome.
   */
  private static Unsettled unsettled(
      Verdict classified,
      AttemptResponse response,
      boolean replay,
      RetryPolicy policy,
      ResponseRules rules) {
    if (provesNoEffect(classified, response)) {
      return null;
    }
    int status = response.status();
    if (replay) {
      return new Unsettled(
          UnknownReason.PROVIDER_STORED_ERROR,
          "HTTP "
              + status
              + " marked as a replay ("
              + rules.replay().header()
              + "): the provider stored this error as the result of the idempotency key and"
              + " answers every retry with it");
    }
    Boolean hint =
        RetryHints.shouldRetry(response, policy.shouldRetryHeader(), rules.shouldRetryHeader());
    if (hint == Boolean.FALSE) {
      return new Unsettled(
          UnknownReason.SERVER_SAID_DO_NOT_RETRY,
          "HTTP "
              + status
              + " with a should-retry header of false: the server asked not to retry an answer"
              + " that does not prove the request had no effect");
    }
    if (hint == null && classified == Verdict.FAIL && !rules.isRetryableError(response)) {
      return new Unsettled(
          UnknownReason.SERVER_ERROR_NOT_RETRIED,
          "HTTP "
              + status
              + ", a server error the retry classifier does not retry: it does not prove the"
              + " request had no effect");
    }
    return null;
  }

  /**
   * The verdict on an error answer after the provider's hints: a replayed rejection is final, a
   * should-retry header decides, a documented temporary error is retried.
   */
  private static Verdict afterHints(
      Verdict classified,
      AttemptResponse response,
      boolean replay,
      RetryPolicy policy,
      ResponseRules rules) {
    if (replay) {
      return Verdict.FAIL; // the provider's stored rejection for the key: a retry gets it again
    }
    Boolean hint =
        RetryHints.shouldRetry(response, policy.shouldRetryHeader(), rules.shouldRetryHeader());
    if (hint != null) {
      return hint ? Verdict.RETRY : Verdict.FAIL;
    }
    if (classified == Verdict.FAIL && rules.isRetryableError(response)) {
      return Verdict.RETRY;
    }
    return classified;
  }
}
