package dev.saferetry;

import dev.saferetry.resilience.BreakerPolicy;
import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.github.resilience4j.circuitbreaker.CircuitBreakerConfig;
import java.time.Clock;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A client's view of its circuit breaker: resilience4j's {@link CircuitBreaker} (possibly shared
 * with clients derived from this one), fed with what the SDK counts, and the state changes this
 * client logs. Listeners subscribe to resilience4j's own state transition events.
 *
 * <p>What is counted: a failure to connect, 429 and the retryable 5xx as failures (unless replayed
 * as the key's stored result); any other answer as a success. A lost answer (see {@link
 * Decision#isLostAnswer}) proves nothing about the server's health by itself — a burst of them
 * against a healthy server is exactly what retries with the same key are for — so its permission is
 * released uncounted, and the call counts one failure only if it ends without an answer.
 *
 * <p>State changes are logged by comparing the breaker's state with the last one seen, instead of
 * subscribing to its event stream: a subscriber makes resilience4j build and dispatch an event
 * object on every recorded call. Thread-safe.
 */
final class Breaker {
  private static final Logger LOG = LoggerFactory.getLogger("dev.saferetry");

  /** Marker recorded by the breaker for failures; carries no data. */
  static final class Counted extends RuntimeException {
    private static final long serialVersionUID = 1L;

    Counted() {
      super("counted failure", null, false, false);
    }
  }

  private static final Counted FAILURE = new Counted();

  private final String name;
  private final CircuitBreaker breaker;
  private final AtomicReference<CircuitBreaker.State> seen;

  Breaker(String name, CircuitBreaker breaker) {
    this.name = name;
    this.breaker = breaker;
    this.seen = new AtomicReference<>(breaker.getState());
  }

  /** Creates resilience4j's breaker for a policy. */
  static CircuitBreaker create(String name, BreakerPolicy policy, Clock clock) {
    CircuitBreakerConfig config =
        CircuitBreakerConfig.custom()
            .failureRateThreshold(policy.failureRateThreshold())
            .slidingWindowType(CircuitBreakerConfig.SlidingWindowType.COUNT_BASED)
            .slidingWindowSize(policy.slidingWindowSize())
            // Every call records an outcome: callers on many threads must not queue on a lock.
            .slidingWindowSynchronizationStrategy(
                CircuitBreakerConfig.SlidingWindowSynchronizationStrategy.LOCK_FREE)
            .minimumNumberOfCalls(Math.min(policy.minimumCalls(), policy.slidingWindowSize()))
            .waitDurationInOpenState(policy.waitInOpenState())
            .permittedNumberOfCallsInHalfOpenState(policy.halfOpenProbes())
            .automaticTransitionFromOpenToHalfOpenEnabled(false)
            .recordException(t -> t instanceof Counted)
            .clock(clock)
            .build();
    CircuitBreaker breaker = CircuitBreaker.of(name, config);
    if (!policy.enabled()) {
      breaker.transitionToDisabledState();
    }
    return breaker;
  }

  /** Asks for a permission to send one attempt. */
  boolean tryAcquire() {
    boolean permitted = breaker.tryAcquirePermission();
    observe();
    return permitted;
  }

  /**
   * Counts one attempt (its permission is used up either way); {@code replayed} when the answer is
   * marked as the key's stored result.
   */
  void record(AttemptResult out, boolean replayed, long nanos) {
    if (Decision.isLostAnswer(out.failure())) {
      breaker.releasePermission(); // judged when the call ends: see callEndedWithoutAnswer
      return;
    }
    count(nanos, Decision.breakerFailure(out.response(), replayed));
  }

  /** Gives an attempt's permission back uncounted: its end (a cancellation) says nothing. */
  void release() {
    breaker.releasePermission();
  }

  /** Counts one failure for a call that ended after a lost answer that retries did not resolve. */
  void callEndedWithoutAnswer() {
    count(0, true);
  }

  /** Returns resilience4j's breaker. */
  CircuitBreaker circuitBreaker() {
    return breaker;
  }

  boolean isOpen() {
    return breaker.getState() == CircuitBreaker.State.OPEN;
  }

  private void count(long nanos, boolean failure) {
    if (failure) {
      breaker.onError(nanos, TimeUnit.NANOSECONDS, FAILURE);
    } else {
      breaker.onSuccess(nanos, TimeUnit.NANOSECONDS);
    }
    observe();
  }

  /** Logs the state if it differs from the last one this client saw. */
  private void observe() {
    CircuitBreaker.State now = breaker.getState();
    if (seen.get() == now) {
      return; // the common case: read only, so that callers do not contend on a write
    }
    CircuitBreaker.State before = seen.getAndSet(now);
    if (before != now) {
      LOG.warn("circuit breaker {} changed from {} to {}", name, before, now);
    }
  }
}
