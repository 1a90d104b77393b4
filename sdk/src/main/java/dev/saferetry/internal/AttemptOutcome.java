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
 * @param body the body bytes (null after a transport failure or when {@code oversized}; an error
 *     body cut at 64 KiB)
 * @param oversized whether a 2xx body exceeded the client's limit
 * @param error the transport failure's exception, or null
 * @param verdict the classification after any should-retry override
 * @param retryAfter the server's delay hint, or null
 * @param existingResourceId the id the provider's "already created" conflict names, or null
 */
record AttemptOutcome(
    Attempt attempt,
    AttemptResponse response,
    byte[] body,
    boolean oversized,
    IOException error,
    Verdict verdict,
    Duration retryAfter,
    String existingResourceId) {

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
   * "already created" conflict is a success, a should-retry header overrides, an error body the
   * provider documents as temporary is retried — and the server's delay hint.
   */
  static AttemptOutcome classify(
      Attempt attempt,
      Wire.Sent sent,
      RetryClassifier classifier,
      RetryPolicy policy,
      ResponseRules rules,
      Clock clock) {
    if (sent.raw() == null) {
      Verdict v = classifier.classify(sent.failure());
      return new AttemptOutcome(attempt, null, null, false, sent.error(), v, null, null);
    }
    AttemptResponse response = sent.raw().response();
    Verdict v = classifier.classify(response);
    String existing = null;
    if (v != Verdict.SUCCEEDED) {
      existing = rules.existingResourceId(response).orElse(null);
    }
    if (existing != null) {
      v = Verdict.SUCCEEDED;
    } else if (v != Verdict.SUCCEEDED) {
      Boolean override = RetryHints.shouldRetry(response, policy.shouldRetryHeader());
      if (override == null) {
        override = RetryHints.shouldRetry(response, rules.shouldRetryHeader());
      }
      if (override != null) {
        v = override ? Verdict.RETRY : Verdict.FAIL;
      } else if (v == Verdict.FAIL && rules.isRetryableError(response)) {
        v = Verdict.RETRY;
      }
    }
    Duration hint = v == Verdict.RETRY ? RetryHints.retryAfter(response, clock) : null;
    return new AttemptOutcome(
        attempt, response, sent.raw().body(), sent.raw().oversized(), null, v, hint, existing);
  }
}
