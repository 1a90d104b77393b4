package dev.saferetry;

import dev.saferetry.call.Attempt;
import dev.saferetry.resilience.TransportFailure;
import java.io.IOException;

/**
 * What one attempt produced, before any decision. Either {@code response} or {@code error} is set.
 *
 * @param attempt the wire record
 * @param response the HTTP answer, or null after a transport failure
 * @param body the body bytes (null after a transport failure or when {@code oversized}; an error
 *     body cut at 64 KiB)
 * @param oversized whether a 2xx body exceeded the client's limit
 * @param error the transport failure's exception, or null
 * @param replayed whether the response is marked as the replay of the key's stored result
 */
record AttemptResult(
    Attempt attempt,
    RawResponse response,
    byte[] body,
    boolean oversized,
    IOException error,
    boolean replayed) {

  /** Returns what the transport returned for attempt {@code attempt}. */
  static AttemptResult of(Attempt attempt, Transport.Sent sent, boolean replayed) {
    if (sent.received() == null) {
      return new AttemptResult(attempt, null, null, false, sent.error(), false);
    }
    return new AttemptResult(
        attempt,
        sent.received().response(),
        sent.received().body(),
        sent.received().oversized(),
        null,
        replayed);
  }

  TransportFailure failure() {
    return attempt.failure();
  }

  int status() {
    return attempt.status();
  }
}
