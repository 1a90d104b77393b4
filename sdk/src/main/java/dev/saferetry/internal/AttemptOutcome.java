package dev.saferetry.internal;

import dev.saferetry.Attempt;
import dev.saferetry.resilience.AttemptResponse;
import dev.saferetry.resilience.TransportFailure;
import dev.saferetry.resilience.Verdict;
import java.io.IOException;
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

  /** Returns whether this attempt may have had an effect that nobody saw. */
  boolean ambiguous() {
    return response != null || failure().mayHaveReachedServer();
  }
}
