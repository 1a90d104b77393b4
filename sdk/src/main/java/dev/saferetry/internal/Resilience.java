package dev.saferetry.internal;

import dev.saferetry.event.BreakerState;
import dev.saferetry.event.BreakerStateChanged;
import dev.saferetry.event.SafeRetryListener;
import dev.saferetry.resilience.BreakerPolicy;
import dev.saferetry.resilience.RetryPolicy;
import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.github.resilience4j.circuitbreaker.CircuitBreakerConfig;
import io.github.resilience4j.core.IntervalBiFunction;
import io.github.resilience4j.retry.Retry;
import io.github.resilience4j.retry.RetryConfig;
import java.time.Clock;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Builds the resilience4j retry and circuit breaker from the SDK's own policies. */
final class Resilience {
  private static final Logger LOG = LoggerFactory.getLogger("dev.saferetry");

  /** Marker recorded by the breaker for failures; carries no data. */
  static final class BreakerFailure extends RuntimeException {
    private static final long serialVersionUID = 1L;

    BreakerFailure() {
      super("counted failure", null, false, false);
    }
  }

  private static final BreakerFailure FAILURE = new BreakerFailure();

  private Resilience() {}

  /**
   * The retry decides whether another attempt follows and how long to wait: the delay is the
   * server's hint when it gave one, else full-jitter backoff.
   */
  static Retry retry(String name, RetryPolicy policy, Backoff backoff) {
    IntervalBiFunction<AttemptOutcome> interval =
        (n, result) -> {
          if (result.isRight() && result.get().retryAfter() != null) {
            return saturatedMillis(result.get().retryAfter().toMillis());
          }
          return backoff.delay(n).toMillis();
        };
    RetryConfig config =
        RetryConfig.<AttemptOutcome>custom()
            .maxAttempts(policy.maxAttempts())
            .retryOnResult(o -> o.verdict() == dev.saferetry.resilience.Verdict.RETRY)
            .retryOnException(t -> false)
            .intervalBiFunction(interval)
            .failAfterMaxAttempts(false)
            .build();
    return Retry.of(name, config);
  }

  private static long saturatedMillis(long ms) {
    return Math.max(0, ms);
  }

  static CircuitBreaker breaker(String name, BreakerPolicy policy, Clock clock) {
    CircuitBreakerConfig config =
        CircuitBreakerConfig.custom()
            .failureRateThreshold(policy.failureRateThreshold())
            .slidingWindowType(CircuitBreakerConfig.SlidingWindowType.COUNT_BASED)
            .slidingWindowSize(policy.slidingWindowSize())
            .minimumNumberOfCalls(Math.min(policy.minimumCalls(), policy.slidingWindowSize()))
            .waitDurationInOpenState(policy.waitInOpenState())
            .permittedNumberOfCallsInHalfOpenState(policy.halfOpenProbes())
            .automaticTransitionFromOpenToHalfOpenEnabled(false)
            .recordException(t -> t instanceof BreakerFailure)
            .clock(clock)
            .build();
    CircuitBreaker breaker = CircuitBreaker.of(name, config);
    if (!policy.enabled()) {
      breaker.transitionToDisabledState();
    }
    return breaker;
  }

  /**
   * Reports the breaker's state changes by comparing its state with the last one seen, instead of
   * subscribing to its event stream: a subscriber makes resilience4j build and dispatch an event
   * object on every recorded call.
   */
  static final class BreakerStates {
    private final String name;
    private final CircuitBreaker breaker;
    private final SafeRetryListener listener;
    private final AtomicReference<CircuitBreaker.State> seen;

    BreakerStates(String name, CircuitBreaker breaker, SafeRetryListener listener) {
      this.name = name;
      this.breaker = breaker;
      this.listener = listener;
      this.seen = new AtomicReference<>(breaker.getState());
    }

    /** Emits an event if the state differs from the last one seen. */
    void observe() {
      CircuitBreaker.State now = breaker.getState();
      CircuitBreaker.State before = seen.getAndSet(now);
      if (before != now) {
        BreakerState from = map(before);
        BreakerState to = map(now);
        LOG.warn("circuit breaker {} changed from {} to {}", name, from, to);
        listener.onBreakerStateChange(new BreakerStateChanged(from, to));
      }
    }
  }

  static void record(CircuitBreaker breaker, long nanos, boolean failure) {
    if (failure) {
      breaker.onError(nanos, TimeUnit.NANOSECONDS, FAILURE);
    } else {
      breaker.onSuccess(nanos, TimeUnit.NANOSECONDS);
    }
  }

  static BreakerState map(CircuitBreaker.State state) {
    switch (state) {
      case CLOSED:
        return BreakerState.CLOSED;
      case HALF_OPEN:
        return BreakerState.HALF_OPEN;
      case DISABLED:
      case METRICS_ONLY:
        return BreakerState.DISABLED;
      default:
        return BreakerState.OPEN;
    }
  }
}
