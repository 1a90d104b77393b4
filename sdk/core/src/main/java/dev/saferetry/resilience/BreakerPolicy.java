package dev.saferetry.resilience;

import java.time.Duration;
import java.util.Objects;

/**
 * When a client's circuit breaker opens, and how it recovers.
 *
 * <p>What the breaker counts, attempt by attempt: a failure to connect (refused, unreachable,
 * unknown host, TLS handshake, connect timeout), 429 and the retryable 5xx statuses are failures —
 * the server is down or says it is unhealthy; any other answer, including every other 4xx, is a
 * success, because it proves the server is up. A lost or late answer after the request was sent
 * (reset, unexpected end of stream, read or call timeout) proves neither: it is counted only when
 * the call ends without an answer — once per call, as a failure — and not at all when a retry with
 * the same key gets one. So a burst of lost responses against a healthy server is retried instead
 * of opening the breaker, while a dead server (refused connections, nothing but 503) opens it after
 * {@link #minimumCalls()} attempts, and a server that swallows every request opens it after as many
 * calls.
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
 * <pre>{@code
 * BreakerPolicy quick = BreakerPolicy.defaults()
 *     .withSlidingWindowSize(10)
 *     .withMinimumCalls(5)
 *     .withWaitInOpenState(Duration.ofSeconds(5));
 * }</pre>
 *
 * <p>Instances are immutable and thread-safe; every {@code with...} method returns a new policy and
 * leaves this one alone.
 */
public final class BreakerPolicy {
  private static final BreakerPolicy DEFAULTS =
      new BreakerPolicy(true, 50f, 50, 20, Duration.ofSeconds(30), 2);

  private final boolean enabled;
  private final float failureRateThreshold;
  private final int slidingWindowSize;
  private final int minimumCalls;
  private final Duration waitInOpenState;
  private final int halfOpenProbes;

  private BreakerPolicy(
      boolean enabled,
      float failureRateThreshold,
      int slidingWindowSize,
      int minimumCalls,
      Duration waitInOpenState,
      int halfOpenProbes) {
    if (!(failureRateThreshold > 0 && failureRateThreshold <= 100)) {
      throw new IllegalArgumentException(
          "failureRateThreshold must be in (0, 100], was " + failureRateThreshold);
    }
    this.enabled = enabled;
    this.failureRateThreshold = failureRateThreshold;
    this.slidingWindowSize = Checks.atLeastOne("slidingWindowSize", slidingWindowSize);
    this.minimumCalls = Checks.atLeastOne("minimumCalls", minimumCalls);
    this.waitInOpenState = Checks.positive("waitInOpenState", waitInOpenState);
    this.halfOpenProbes = Checks.atLeastOne("halfOpenProbes", halfOpenProbes);
  }

  /** {@return the defaults for low-volume payment traffic} */
  public static BreakerPolicy defaults() {
    return DEFAULTS;
  }

  /** {@return a policy whose breaker never opens} */
  public static BreakerPolicy disabled() {
    return new BreakerPolicy(
        false,
        DEFAULTS.failureRateThreshold,
        DEFAULTS.slidingWindowSize,
        DEFAULTS.minimumCalls,
        DEFAULTS.waitInOpenState,
        DEFAULTS.halfOpenProbes);
  }

  /**
   * {@return this policy with {@code percent} as the failure rate at or above which the breaker
   * opens; in (0, 100]} Default: 50.
   *
   * @param percent the threshold
   * @throws IllegalArgumentException if {@code percent} is outside (0, 100]
   */
  public BreakerPolicy withFailureRateThreshold(float percent) {
    return new BreakerPolicy(
        enabled, percent, slidingWindowSize, minimumCalls, waitInOpenState, halfOpenProbes);
  }

  /**
   * {@return this policy remembering {@code outcomes} counted outcomes; at least 1} Default: 50.
   *
   * @param outcomes the window size
   * @throws IllegalArgumentException if {@code outcomes} is less than 1
   */
  public BreakerPolicy withSlidingWindowSize(int outcomes) {
    return new BreakerPolicy(
        enabled, failureRateThreshold, outcomes, minimumCalls, waitInOpenState, halfOpenProbes);
  }

  /**
   * {@return this policy judging the rate once {@code outcomes} counted outcomes were seen; at
   * least 1, and a value larger than the window counts as the window} Default: 20.
   *
   * @param outcomes the minimum
   * @throws IllegalArgumentException if {@code outcomes} is less than 1
   */
  public BreakerPolicy withMinimumCalls(int outcomes) {
    return new BreakerPolicy(
        enabled,
        failureRateThreshold,
        slidingWindowSize,
        outcomes,
        waitInOpenState,
        halfOpenProbes);
  }

  /**
   * {@return this policy staying open for {@code openFor} before probes are let through; positive}
   * Default: 30 s.
   *
   * @param openFor the open period
   * @throws IllegalArgumentException if {@code openFor} is zero or negative
   * @throws NullPointerException if {@code openFor} is null
   */
  public BreakerPolicy withWaitInOpenState(Duration openFor) {
    return new BreakerPolicy(
        enabled, failureRateThreshold, slidingWindowSize, minimumCalls, openFor, halfOpenProbes);
  }

  /**
   * {@return this policy letting {@code probes} probe calls through while half-open; at least 1}
   * Default: 2.
   *
   * @param probes the number of probes
   * @throws IllegalArgumentException if {@code probes} is less than 1
   */
  public BreakerPolicy withHalfOpenProbes(int probes) {
    return new BreakerPolicy(
        enabled, failureRateThreshold, slidingWindowSize, minimumCalls, waitInOpenState, probes);
  }

  /** {@return whether the breaker is used at all} */
  public boolean enabled() {
    return enabled;
  }

  /** {@return the failure rate, in percent, at or above which the breaker opens} */
  public float failureRateThreshold() {
    return failureRateThreshold;
  }

  /** {@return how many counted outcomes the breaker remembers} */
  public int slidingWindowSize() {
    return slidingWindowSize;
  }

  /**
   * {@return how many counted outcomes are needed before the rate is judged (at most the window)}
   */
  public int minimumCalls() {
    return minimumCalls;
  }

  /** {@return how long the breaker stays open before it lets probes through} */
  public Duration waitInOpenState() {
    return waitInOpenState;
  }

  /** {@return how many probe calls are let through while half-open} */
  public int halfOpenProbes() {
    return halfOpenProbes;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof BreakerPolicy p
        && enabled == p.enabled
        && Float.compare(failureRateThreshold, p.failureRateThreshold) == 0
        && slidingWindowSize == p.slidingWindowSize
        && minimumCalls == p.minimumCalls
        && waitInOpenState.equals(p.waitInOpenState)
        && halfOpenProbes == p.halfOpenProbes;
  }

  @Override
  public int hashCode() {
    return Objects.hash(
        enabled,
        failureRateThreshold,
        slidingWindowSize,
        minimumCalls,
        waitInOpenState,
        halfOpenProbes);
  }

  @Override
  public String toString() {
    return "BreakerPolicy[enabled="
        + enabled
        + ", failureRateThreshold="
        + failureRateThreshold
        + ", slidingWindowSize="
        + slidingWindowSize
        + ", minimumCalls="
        + minimumCalls
        + ", waitInOpenState="
        + waitInOpenState
        + ", halfOpenProbes="
        + halfOpenProbes
        + "]";
  }
}
