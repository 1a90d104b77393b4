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
 * BreakerPolicy quick = BreakerPolicy.builder()
 *     .slidingWindowSize(10)
 *     .minimumCalls(5)
 *     .waitInOpenState(Duration.ofSeconds(5))
 *     .build();
 * }</pre>
 *
 * <p>Instances are immutable and thread-safe.
 */
public final class BreakerPolicy {
  private static final BreakerPolicy DEFAULTS = builder().build();

  private final boolean enabled;
  private final float failureRateThreshold;
  private final int slidingWindowSize;
  private final int minimumCalls;
  private final Duration waitInOpenState;
  private final int halfOpenProbes;

  private BreakerPolicy(Builder b) {
    if (!(b.failureRateThreshold > 0 && b.failureRateThreshold <= 100)) {
      throw new IllegalArgumentException(
          "failureRateThreshold must be in (0, 100], was " + b.failureRateThreshold);
    }
    this.enabled = b.enabled;
    this.failureRateThreshold = b.failureRateThreshold;
    this.slidingWindowSize = Checks.atLeastOne("slidingWindowSize", b.slidingWindowSize);
    this.minimumCalls = Checks.atLeastOne("minimumCalls", b.minimumCalls);
    this.waitInOpenState = Checks.positive("waitInOpenState", b.waitInOpenState);
    this.halfOpenProbes = Checks.atLeastOne("halfOpenProbes", b.halfOpenProbes);
  }

  /**
   * Returns a builder with every setting at its default.
   *
   * @return a new builder
   */
  public static Builder builder() {
    return new Builder();
  }

  /**
   * Returns the defaults for low-volume payment traffic.
   *
   * @return the default policy
   */
  public static BreakerPolicy defaults() {
    return DEFAULTS;
  }

  /**
   * Returns a policy whose breaker never opens.
   *
   * @return a disabled policy
   */
  public static BreakerPolicy disabled() {
    return builder().enabled(false).build();
  }

  /**
   * Returns a builder holding a copy of this policy's settings. Like every value's {@code
   * toBuilder()}, it shares nothing with this one: a value holds no resources.
   *
   * @return a new builder
   */
  public Builder toBuilder() {
    return new Builder(this);
  }

  /**
   * Returns whether the breaker is used at all.
   *
   * @return whether it is enabled
   */
  public boolean enabled() {
    return enabled;
  }

  /**
   * Returns the failure rate, in percent, at or above which the breaker opens.
   *
   * @return a percentage in (0, 100]
   */
  public float failureRateThreshold() {
    return failureRateThreshold;
  }

  /**
   * Returns how many counted outcomes the breaker remembers.
   *
   * @return at least 1
   */
  public int slidingWindowSize() {
    return slidingWindowSize;
  }

  /**
   * Returns how many counted outcomes are needed before the rate is judged (at most the window).
   *
   * @return at least 1
   */
  public int minimumCalls() {
    return minimumCalls;
  }

  /**
   * Returns how long the breaker stays open before it lets probes through.
   *
   * @return a positive duration
   */
  public Duration waitInOpenState() {
    return waitInOpenState;
  }

  /**
   * Returns how many probe calls are let through while half-open.
   *
   * @return at least 1
   */
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

  /** Builds a {@link BreakerPolicy}; {@link #build()} validates. Not thread-safe. */
  public static final class Builder {
    private boolean enabled = true;
    private float failureRateThreshold = 50f;
    private int slidingWindowSize = 50;
    private int minimumCalls = 20;
    private Duration waitInOpenState = Duration.ofSeconds(30);
    private int halfOpenProbes = 2;

    private Builder() {}

    private Builder(BreakerPolicy p) {
      enabled = p.enabled;
      failureRateThreshold = p.failureRateThreshold;
      slidingWindowSize = p.slidingWindowSize;
      minimumCalls = p.minimumCalls;
      waitInOpenState = p.waitInOpenState;
      halfOpenProbes = p.halfOpenProbes;
    }

    /**
     * Whether the breaker is used at all. Default: true.
     *
     * @param on whether the breaker is enabled
     * @return this builder
     */
    public Builder enabled(boolean on) {
      this.enabled = on;
      return this;
    }

    /**
     * The failure rate, in percent, at or above which the breaker opens; in (0, 100]. Default: 50.
     *
     * @param percent the threshold
     * @return this builder
     */
    public Builder failureRateThreshold(float percent) {
      this.failureRateThreshold = percent;
      return this;
    }

    /**
     * How many counted outcomes the breaker remembers; at least 1. Default: 50.
     *
     * @param outcomes the window size
     * @return this builder
     */
    public Builder slidingWindowSize(int outcomes) {
      this.slidingWindowSize = outcomes;
      return this;
    }

    /**
     * How many counted outcomes are needed before the rate is judged; at least 1, and a value
     * larger than the window counts as the window. Default: 20.
     *
     * @param outcomes the minimum
     * @return this builder
     */
    public Builder minimumCalls(int outcomes) {
      this.minimumCalls = outcomes;
      return this;
    }

    /**
     * How long the breaker stays open before probes are let through; positive. Default: 30 s.
     *
     * @param openFor the open period
     * @return this builder
     */
    public Builder waitInOpenState(Duration openFor) {
      this.waitInOpenState = openFor;
      return this;
    }

    /**
     * How many probe calls are let through while half-open; at least 1. Default: 2.
     *
     * @param probes the number of probes
     * @return this builder
     */
    public Builder halfOpenProbes(int probes) {
      this.halfOpenProbes = probes;
      return this;
    }

    /**
     * Returns the policy.
     *
     * @return the policy
     * @throws IllegalArgumentException naming the first bad parameter
     * @throws NullPointerException naming a missing duration
     */
    public BreakerPolicy build() {
      return new BreakerPolicy(this);
    }
  }
}
