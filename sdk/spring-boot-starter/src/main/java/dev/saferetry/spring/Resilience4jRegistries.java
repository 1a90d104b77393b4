package dev.saferetry.spring;

import dev.saferetry.SafeRetryClientBuilder;
import dev.saferetry.resilience.BreakerPolicy;
import dev.saferetry.resilience.RetryPolicy;
import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.github.resilience4j.circuitbreaker.CircuitBreakerConfig;
import io.github.resilience4j.circuitbreaker.CircuitBreakerRegistry;
import io.github.resilience4j.core.IntervalBiFunction;
import io.github.resilience4j.retry.Retry;
import io.github.resilience4j.retry.RetryConfig;
import io.github.resilience4j.retry.RetryRegistry;
import java.time.Duration;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Takes a client's breaker and retry settings from the application's resilience4j registries, by
 * the client's name ({@code resilience4j.circuitbreaker.instances.<client>}, {@code
 * resilience4j.retry.instances.<client>}), and has the client create its breaker and retry in those
 * registries, so that their state, events, health and metrics are resilience4j's own.
 *
 * <p>Which settings apply: the breaker's failure rate threshold, window size, minimum number of
 * calls, wait in the open state and calls permitted half-open; the retry's maximum attempts, wait
 * duration and exponential backoff (multiplier, maximum wait). SafeRetry keeps its safety rules
 * whatever the instance says: which answers and exceptions are retried and recorded as failures,
 * the interval when the provider gives a hint (Retry-After), the deadline, the retry budget and one
 * key per intent. The instance resilience4j made from the properties is replaced in its registry by
 * the client's (same name), which carries those rules.
 *
 * <p>This class is thread-safe.
 */
final class Resilience4jRegistries implements SafeRetryClientCustomizer {
  private static final Logger LOG = LoggerFactory.getLogger("dev.saferetry.spring");

  private final SafeRetryProperties properties;
  private final CircuitBreakerRegistry breakers;
  private final RetryRegistry retries;

  Resilience4jRegistries(
      SafeRetryProperties properties, CircuitBreakerRegistry breakers, RetryRegistry retries) {
    this.properties = properties;
    this.breakers = breakers;
    this.retries = retries;
  }

  @Override
  public void customize(String clientName, SafeRetryClientBuilder builder) {
    if (breakers != null) {
      Optional<CircuitBreakerConfig> config = breakerConfig(clientName);
      config.ifPresent(c -> builder.breakerPolicy(breakerPolicy(c)));
      builder.circuitBreakerRegistry(breakers);
    }
    if (retries != null) {
      Optional<RetryConfig> config = retryConfig(clientName);
      ClientProperties p = properties.getClients().get(clientName);
      RetryPolicy base =
          SafeRetryClientFactory.retry(p == null ? new ClientProperties.Retry() : p.getRetry());
      config.ifPresent(c -> builder.retryPolicy(retryPolicy(base, c)));
      builder.retryRegistry(retries);
    }
  }

  /** The instance's configuration, taking the instance out of the registry for the client's. */
  private Optional<CircuitBreakerConfig> breakerConfig(String name) {
    Optional<CircuitBreaker> made = breakers.find(name);
    if (made.isPresent()) {
      breakers.remove(name);
      LOG.debug("client {} takes resilience4j's circuit breaker settings of the same name", name);
      return Optional.of(made.get().getCircuitBreakerConfig());
    }
    return breakers.getConfiguration(name);
  }

  private Optional<RetryConfig> retryConfig(String name) {
    Optional<Retry> made = retries.find(name);
    if (made.isPresent()) {
      retries.remove(name);
      LOG.debug("client {} takes resilience4j's retry settings of the same name", name);
      return Optional.of(made.get().getRetryConfig());
    }
    return retries.getConfiguration(name);
  }

  static BreakerPolicy breakerPolicy(CircuitBreakerConfig c) {
    BreakerPolicy p =
        BreakerPolicy.defaults()
            .withFailureRateThreshold(c.getFailureRateThreshold())
            .withSlidingWindowSize(c.getSlidingWindowSize())
            .withMinimumCalls(c.getMinimumNumberOfCalls())
            .withHalfOpenProbes(c.getPermittedNumberOfCallsInHalfOpenState());
    Long wait = c.getWaitIntervalFunctionInOpenState().apply(1);
    return wait == null || wait <= 0 ? p : p.withWaitInOpenState(Duration.ofMillis(wait));
  }

  static RetryPolicy retryPolicy(RetryPolicy base, RetryConfig c) {
    RetryPolicy p = base.withMaxAttempts(c.getMaxAttempts());
    IntervalBiFunction<Object> f = c.getIntervalBiFunction();
    if (f == null) {
      return p;
    }
    long first = interval(f, 1);
    long second = interval(f, 2);
    if (first <= 0) {
      return p;
    }
    // The longest wait the attempts can reach (resilience4j's exponential backoff is unbounded
    // unless a maximum wait is set); however long, the call's deadline ends it first.
    long longest = first;
    for (int attempt = 2; attempt < c.getMaxAttempts() && attempt <= 64; attempt++) {
      longest = Math.max(longest, interval(f, attempt));
    }
    return p.withInitialDelay(Duration.ofMillis(first))
        .withMultiplier(second > first ? (double) second / first : 1.0)
        .withMaxDelay(Duration.ofMillis(longest));
  }

  private static long interval(IntervalBiFunction<Object> f, int attempt) {
    try {
      Long ms = f.apply(attempt, null);
      return ms == null ? -1 : ms;
    } catch (RuntimeException e) {
      return -1; // a function that needs the result or exception: keep SafeRetry's backoff
    }
  }
}
