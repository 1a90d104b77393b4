package dev.saferetry.resilience;

import java.time.Duration;
import java.util.Objects;

/**
 * When a client's circuit breaker opens, and how it recovers.
 *
 * <p>What the breaker counts, attempt by attempt: a failure to connect (refused, unreachable,
 * connect timeout), 429 and the retryable 5xx statuses are failures — the server is down or says it
 * is unhealthy; any other answer, including every other 4xx, is a success, because it proves the
 * server is up. A lost or late answer after the request was sent (reset, unexpected end of stream,
 * read, write or call timeout) proves neither: it is counted only when the call ends without an
 * answer — once per call, as a failure — and not at all when a retry with the same key gets one. So
 * a burst of lost responses against a healthy server is retried instead of opening the breaker,
 * while a dead server (refused connections, nothing but 503) opens it after {@link #minimumCalls()}
 * attempts, and a server that swallows every request opens it after as many calls.
 *
 * <p>Over the last {@link #slidingWindowSize()} counted outcomes (once at least {@link
 * #minimumCalls()} were seen), a failure rate at or above {@link #failureRateThreshold()} percent
 * opens it. While open, calls fail fast without network I/O; after {@link #waitInOpenState()} it
 * lets {@link #halfOpenProbes()} probe calls through — once the clock is strictly past the open
 * period — and closes again if they succeed.
 *
 * <p>The defaults suit low-volume payment traffic, where twenty calls may take minutes: a window of
 * 50 outcomes, at least 20 seen, 50 %, 30 s open, 2 probes.
 *
 * @param enabled whether the breaker is used at all; default true
 * @param failureRateThreshold percentage in (0, 100]; default 50
 * @param slidingWindowSize outcomes remembered; default 50
 * @param minimumCalls outcomes needed before the rate is judged; default 20
 * @param waitInOpenState how long the breaker stays open; default 30 s
 * @param halfOpenProbes calls let through while half-open; default 2
 *     <p>Instances are immutable and thread-safe.
 */
public record BreakerPolicy(
    boolean enabled,
    float failureRateThreshold,
    int slidingWindowSize,
    int minimumCalls,
    Duration waitInOpenState,
    int halfOpenProbes) {

  /**
   * Validates the policy.
   *
   * @throws IllegalArgumentException naming the first bad parameter
   */
  public BreakerPolicy {
    if (!(failureRateThreshold > 0 && failureRateThreshold <= 100)) {
      throw new IllegalArgumentException(
          "failureRateThreshold must be in (0, 100], was " + failureRateThreshold);
    }
    if (slidingWindowSize < 1) {
      throw new IllegalArgumentException("slidingWindowSize must be >= 1");
    }
    if (minimumCalls < 1) {
      throw new IllegalArgumentException("minimumCalls must be >= 1");
    }
    Objects.requireNonNull(waitInOpenState, "waitInOpenState");
    if (waitInOpenState.isNegative() || waitInOpenState.isZero()) {
      throw new IllegalArgumentException("waitInOpenState must be positive");
    }
    if (halfOpenProbes < 1) {
      throw new IllegalArgumentException("halfOpenProbes must be >= 1");
    }
  }

  /** Returns the defaults for low-volume payment traffic. */
  public static BreakerPolicy defaults() {
    return new BreakerPolicy(true, 50f, 50, 20, Duration.ofSeconds(30), 2);
  }

  /** Returns a policy that never opens. */
  public static BreakerPolicy disabled() {
    BreakerPolicy d = defaults();
    return new BreakerPolicy(
        false,
        d.failureRateThreshold,
        d.slidingWindowSize,
        d.minimumCalls,
        d.waitInOpenState,
        d.halfOpenProbes);
  }

  /** Returns a copy with another window: calls remembered and calls needed before judging. */
  public BreakerPolicy withWindow(int windowSize, int minimum) {
    return new BreakerPolicy(
        enabled, failureRateThreshold, windowSize, minimum, waitInOpenState, halfOpenProbes);
  }

  /** Returns a copy with another failure rate threshold, in percent. */
  public BreakerPolicy withFailureRateThreshold(float percent) {
    return new BreakerPolicy(
        enabled, percent, slidingWindowSize, minimumCalls, waitInOpenState, halfOpenProbes);
  }

  /** Returns a copy with another open period and number of half-open probes. */
  public BreakerPolicy withRecovery(Duration openFor, int probes) {
    return new BreakerPolicy(
        enabled, failureRateThreshold, slidingWindowSize, minimumCalls, openFor, probes);
  }
}
