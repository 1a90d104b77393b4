package dev.saferetry.resilience;

/**
 * Decides, per attempt, whether an operation succeeded, may be retried with the same key, or failed
 * for good. This is the one place where retry rules live; replace it to refine them.
 *
 * <p>A classifier only says whether a retry would be <em>safe and useful</em>; the retry policy,
 * the deadline and the circuit breaker decide whether one actually happens. A should-retry header
 * named in the {@link RetryPolicy} decides instead whether a non-2xx answer is retried. How a call
 * that is not retried ends depends on what the answer proves, not on the verdict alone: {@link
 * Verdict#FAIL} on a status below 500 ends FAILED, but a server error (5xx) never proves that the
 * request had no effect and ends UNKNOWN.
 *
 * <pre>{@code
 * // Retry 409 only when the server says the first request is still in progress.
 * RetryClassifier classifier = new RetryClassifier() {
 *   public Verdict classify(AttemptResponse r) {
 *     if (r.status() == 409) {
 *       return r.errorBody().contains("request_in_progress") ? Verdict.RETRY : Verdict.FAIL;
 *     }
 *     return RetryClassifier.standard().classify(r);
 *   }
 *   public Verdict classify(TransportFailure f) {
 *     return RetryClassifier.standard().classify(f);
 *   }
 * };
 * }</pre>
 *
 * <p>Implementations must be thread-safe and must not block or throw.
 */
public interface RetryClassifier {

  /**
   * Classifies an HTTP answer.
   *
   * @param response the response
   * @return the verdict
   */
  Verdict classify(AttemptResponse response);

  /**
   * Classifies a failure below HTTP.
   *
   * @param failure the failure
   * @return the verdict
   */
  Verdict classify(TransportFailure failure);

  /**
   * Returns the standard rules; see {@link StandardRetryClassifier}.
   *
   * @return the standard rules; see {@link StandardRetryClassifier}
   */
  static RetryClassifier standard() {
    return StandardRetryClassifier.INSTANCE;
  }
}
