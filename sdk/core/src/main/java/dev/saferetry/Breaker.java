package dev.saferetry;

import dev.saferetry.resilience.BreakerPolicy;
import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.github.resilience4j.circuitbreaker.CircuitBreakerConfig;
import io.github.resilience4j.circuitbreaker.CircuitBreakerRegistry;
import java.time.Clock;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A client's view of its circuit breaker: resilience4j's {@link CircuitBreaker} (possibly shared
 * with clients derived from this one), asked for a permission before every attempt and told every
 * attempt's result, and the state changes this client logs. Listeners subscribe to resilience4j's
 * own events.
 *
 * <p>What counts as a failure is the breaker's own configuration, SafeRetry's rule ({@link
 * Decision#breakerFailure}): its result predicate ({@code recordResult}) takes an answer's {@link
 * AttemptResult} — 429 and the retryable 5xx fail, unless replayed as the key's stored result; any
 * other answer is a success — and a transport failure is recorded with its (redacted) exception. A
 * lost answer (see {@link Decision#isLostAnswer}) proves nothing about the server's health by
 * itself — a burst of them against a healthy server is exactly what retries with the same key are
 * for — so its permission is released uncounted, and the call records one failure, the exception it
 * ends with, only if it ends without an answer.
 *
 * <p>State changes are logged by comparing the breaker's state with the last one seen, instead of
 * subscribing to its event stream: a subscriber makes resilience4j build and dispatch an event
 * object on every recorded call. Thread-safe.
 */
final class Breaker {
  private static final Logger LOG = LoggerFactory.getLogger("dev.saferetry");

  private final String name;
  private final CircuitBreaker breaker;
  private final AtomicReference<CircuitBreaker.State> seen;

  Breaker(String name, CircuitBreaker breaker) {
    this.name = name;
    this.breaker = breaker;
    this.seen = new AtomicReference<>(breaker.getState());
  }

  /**
   * Creates resilience4j's breaker for a policy: in {@code registry} when the caller gave one (its
   * tags and event consumers then apply), on its own otherwise.
   *
   * @throws IllegalArgumentException if the registry already holds a breaker of that name: the
   *     client's name must be its own
   */
  static CircuitBreaker create(
      String name, BreakerPolicy policy, Clock clock, CircuitBreakerRegistry registry) {
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
            // The client hands in only what its rule counts as a failure.
            .recordException(t -> true)
            .recordResult(r -> r instanceof AttemptResult a && isFailure(a))
            .clock(clock)
            .build();
    CircuitBreaker breaker;
    if (registry == null) {
      breaker = CircuitBreaker.of(name, config);
    } else {
      breaker = registry.circuitBreaker(name, config);
      if (breaker.getCircuitBreakerConfig() != config) {
        throw new IllegalArgumentException(
            "circuitBreakerRegistry already holds a breaker named '"
                + name
                + "'; give the client its own name");
      }
    }
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

  private static boolean isFailure(AttemptResult a) {
    return Decision.breakerFailure(a.response(), a.replayed());
  }

  /** Records one attempt's result (its permission is used up either way). */
  void record(AttemptResult out, long nanos) {
    if (Decision.isLostAnswer(out.failure())) {
      breaker.releasePermission(); // judged when the call ends: see callEndedWithoutAnswer
      return;
    }
    if (out.response() == null) {
      breaker.onError(nanos, TimeUnit.NANOSECONDS, out.error());
    } else {
      breaker.onResult(nanos, TimeUnit.NANOSECONDS, out);
    }
    observe();
  }

  /** Gives an attempt's permission back uncounted: its end (a cancellation) says nothing. */
  void release() {
    breaker.releasePermission();
  }

  /**
   * Records one failure, {@code ending}, for a call that ended after a lost answer that retries did
   * not resolve.
   */
  void callEndedWithoutAnswer(Exception ending) {
    breaker.onError(0, TimeUnit.NANOSECONDS, ending);
    observe();
  }

  /** Returns resilience4j's breaker. */
  CircuitBreaker circuitBreaker() {
    return breaker;
  }

  boolean isOpen() {
    return breaker.getState() == CircuitBreaker.State.OPEN;
  }

  // Logs the state if it differs from the last one this client saw.
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
