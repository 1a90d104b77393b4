package dev.saferetry.resilience;

/**
 * Which error answers may be retried with the same key: the one rule of the retry decision a user
 * can replace. It sees only non-2xx answers that are not redirects; everything else (what an answer
 * proves, replay markers, should-retry headers, {@code Retry-After}, the attempts, the deadline,
 * the budget and the breaker) stays with the SDK. Whether a retry actually happens is then decided
 * by the retry policy, the deadline, the budget and the breaker; how a call that is not retried
 * ends depends on what the answer proves: a status below 500 not retried ends FAILED, a 5xx never
 * does.
 *
 * <p>The standard rules retry 408, 409, 429, 500, 502, 503 and 504.
 *
 * <pre>{@code
 * // Retry 409 only when the server says the first request is still in progress.
 * RetryClassifier classifier = (status, errorBody) -> status == 409
 *     ? errorBody.contains("request_in_progress")
 *     : RetryClassifier.standard().retries(status, errorBody);
 * }</pre>
 *
 * <p>Implementations must be thread-safe and must not block or throw.
 */
@FunctionalInterface
public interface RetryClassifier {

  /**
   * {@return whether an error answer may be retried with the same key}
   *
   * @param status the HTTP status, 400 to 599
   * @param errorBody the body as text (at most 64 KiB), or {@code ""}
   */
  boolean retries(int status, String errorBody);

  /** {@return the standard rules: 408, 409, 429, 500, 502, 503 and 504 are retried} */
  static RetryClassifier standard() {
    return (status, errorBody) ->
        status == 408
            || status == 409
            || status == 429
            || status == 500
            || status == 502
            || status == 503
            || status == 504;
  }
}
