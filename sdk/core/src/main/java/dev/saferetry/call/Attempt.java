package dev.saferetry.call;

import dev.saferetry.internal.Redaction;
import dev.saferetry.resilience.TransportFailure;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * One attempt of a call, as it happened on the wire.
 *
 * <p>Request ids are tracing data only: the SDK sends a fresh one per attempt and records the
 * server's, but never uses either for deduplication — that is the idempotency key's job.
 *
 * <p>Instances are immutable and thread-safe.
 *
 * @param number 1 for the first attempt
 * @param requestId the {@code X-Request-Id} sent with this attempt
 * @param serverRequestId the server's {@code Request-Id} or {@code X-Request-Id} (as the SDK
 *     records it: printable ASCII, at most 128 characters, echoed credentials masked), or {@code
 *     null}
 * @param status the HTTP status, or 0 when the attempt ended with a transport failure
 * @param failure the transport failure, or {@code null} when an HTTP answer arrived
 * @param duration how long the attempt took
 * @param delayBefore how long the client waited before starting it (zero for the first)
 */
public record Attempt(
    int number,
    String requestId,
    String serverRequestId,
    int status,
    TransportFailure failure,
    Duration duration,
    Duration delayBefore) {

  /**
   * Validates the attempt.
   *
   * @param number 1 for the first attempt
   * @param requestId the {@code X-Request-Id} sent with this attempt
   * @param serverRequestId the server's {@code Request-Id} or {@code X-Request-Id} (as the SDK
   *     records it: printable ASCII, at most 128 characters, echoed credentials masked), or {@code
   *     null}
   * @param status the HTTP status, or 0 when the attempt ended with a transport failure
   * @param failure the transport failure, or {@code null} when an HTTP answer arrived
   * @param duration how long the attempt took
   * @param delayBefore how long the client waited before starting it (zero for the first)
   */
  public Attempt {
    if (number < 1) {
      throw new IllegalArgumentException("number must be >= 1");
    }
    Objects.requireNonNull(requestId, "requestId");
    Objects.requireNonNull(duration, "duration");
    Objects.requireNonNull(delayBefore, "delayBefore");
    if ((status == 0) == (failure == null)) {
      throw new IllegalArgumentException("an attempt has either a status or a failure");
    }
  }

  /** {@return the transport failure, if the attempt ended with one} */
  public Optional<TransportFailure> transportFailure() {
    return Optional.ofNullable(failure);
  }

  /**
   * Returns a short description safe to log, e.g. {@code "#2 503"} or {@code "#1 READ_TIMEOUT"};
   * the server's request id is shown as printable ASCII, capped.
   */
  @Override
  public String toString() {
    return "#"
        + number
        + " "
        + (failure != null ? failure.name() : String.valueOf(status))
        + " ("
        + duration.toMillis()
        + " ms, request id "
        + requestId
        + (serverRequestId != null
            ? ", server request id " + Redaction.printable(serverRequestId)
            : "")
        + ")";
  }
}
