package dev.saferetry.internal;

import dev.saferetry.Attempt;
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
 * @param body the 2xx body bytes (null otherwise, or when {@code oversized})
 * @param oversized whether a 2xx body exceeded the client's limit
 * @param error the transport failure's exception, or null
 * @param verdict the classification after any should-retry override
 * @param retryAfter the server's delay hint, or null
 */
record AttemptOutcome(
    Attempt attempt,
    AttemptResponse response,
    byte[] body,
    boolean oversized,
    IOException error,
    Verdict verdict,
    Duration retryAfter) {

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

  /** Classifies what the wire returned: the classifier's verdict, a should-retry header, hints. */
  static AttemptOutcome classify(
      Attempt attempt,
      Wire.Sent sent,
      RetryClassifier classifier,
      RetryPolicy policy,
      Clock clock) {
    if (sent.raw() == null) {
      Verdict v = classifier.classify(sent.failure());
      return new AttemptOutcome(attempt, null, null, false, sent.error(), v, null);
    }
    AttemptResponse response = sent.raw().response();
    Verdict v = classifier.classify(response);
    if (v != Verdict.SUCCEEDED) {
      Boolean override = RetryHints.shouldRetry(response, policy.shouldRetryHeader());
      if (override != null) {
        v = override ? Verdict.RETRY : Verdict.FAIL;
      }
    }
    Duration hint = v == Verdict.RETRY ? RetryHints.retryAfter(response, clock) : null;
    return new AttemptOutcome(
        attempt, response, sent.raw().body(), sent.raw().oversized(), null, v, hint);
  }
}
