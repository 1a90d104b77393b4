package dev.saferetry.resilience;

/**
 * The standard retry rules.
 *
 * <table>
 *   <caption>Standard classification</caption>
 *   <tr><th>Answer</th><th>Verdict</th><th>Why</th></tr>
 *   <tr><td>2xx</td><td>SUCCEEDED</td><td></td></tr>
 *   <tr><td>408, 429</td><td>RETRY</td><td>not processed; try again later</td></tr>
 *   <tr><td>409</td><td>RETRY</td><td>a request with this key is still in progress</td></tr>
 *   <tr><td>500, 502, 503, 504</td><td>RETRY</td><td>may or may not have been applied</td></tr>
 *   <tr><td>any other status</td><td>FAIL</td><td>definitive (400, 401, 403, 404, 422, ...); a
 *       server error not retried (501, 505, a gateway's 520–524) ends UNKNOWN, since a 5xx never
 *       proves that nothing happened</td>
 *   </tr>
 *   <tr><td>connect failure or timeout (refused, unreachable, unknown host, TLS handshake)</td>
 *       <td>RETRY</td><td>nothing was sent: retrying is safe, and DNS or handshake failures are
 *       often transient</td></tr>
 *   <tr><td>read or call timeout, reset, unexpected EOF</td><td>RETRY</td>
 *       <td>may have been applied: the same key makes the retry safe</td></tr>
 *   <tr><td>other I/O failure after the request was handed to a connection</td><td>FAIL</td>
 *       <td>a protocol error: retrying will not change it</td></tr>
 * </table>
 *
 * <p>This class is immutable and thread-safe.
 */
public final class StandardRetryClassifier implements RetryClassifier {
  static final StandardRetryClassifier INSTANCE = new StandardRetryClassifier();

  private StandardRetryClassifier() {}

  @Override
  public Verdict classify(AttemptResponse response) {
    int status = response.status();
    if (status >= 200 && status < 300) {
      return Verdict.SUCCEEDED;
    }
    return isRetryableStatus(status) ? Verdict.RETRY : Verdict.FAIL;
  }

  @Override
  public Verdict classify(TransportFailure failure) {
    return failure == TransportFailure.OTHER ? Verdict.FAIL : Verdict.RETRY;
  }

  /**
   * Returns whether a status is one of 408, 409, 429, 500, 502, 503, 504.
   *
   * @param status the status
   * @return whether a status is one of 408, 409, 429, 500, 502, 503, 504
   */
  public static boolean isRetryableStatus(int status) {
    switch (status) {
      case 408:
      case 409:
      case 429:
      case 500:
      case 502:
      case 503:
      case 504:
        return true;
      default:
        return false;
    }
  }

  /**
   * Returns whether the circuit breaker counts a status as a failure: 429 and 500, 502, 503, 504.
   * Other 4xx prove the server is up and count as successes.
   *
   * @param status the status
   * @return whether the circuit breaker counts a status as a failure: 429 and 500, 502, 503, 504
   */
  public static boolean isBreakerFailure(int status) {
    return status == 429 || status == 500 || status == 502 || status == 503 || status == 504;
  }
}
