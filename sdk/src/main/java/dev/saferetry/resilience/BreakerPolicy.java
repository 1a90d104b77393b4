package dev.saferetry.resilience;

import java.time.Duration;
import java.util.Objects;

/**
 * When a client's circuit breaker opens, and how it recovers.
 *
 * <p>The breaker counts transport failures (connect failures, timeouts, resets), 429 and the
 * retryable 5xx statuses as failures; any other answer — including every other 4xx — counts as a
 * success, because it proves the server is up. Over the last {@link #slidingWindowSize()} calls
 * (once at least {@link #minimumCalls()} were seen), a failure rate at or above {@link
 * #failureRateThreshold()} percent opens it. While open, calls fail fast without network I/O; after
 * {@link #waitInOpenState()} it lets {@link #halfOpenProbes()} probe calls through — once the clock
 * is strictly past the open period — and closes again if they succeed.
 *
 * <p>The defaults suit low-volume payment traffic, where ten calls may take minutes: a window of 20
 * calls, at least 10 seen, 50 %, 30 s open, 2 probes.
 *
 * @param enabled whether the breaker is used at all; default true
 * @param failureRateThreshold percentage in (0, 100]; default 50
 * @param slidingWindowSize calls remembered; default 20
 * @param minimumCalls calls needed before the rate is judged; default 10
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
    return new BreakerPolicy(true, 50f, 20, 10, Duration.ofSeconds(30), 2);
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
