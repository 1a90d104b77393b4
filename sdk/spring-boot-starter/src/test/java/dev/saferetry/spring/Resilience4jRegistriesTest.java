package dev.saferetry.spring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.saferetry.RequestOptions;
import dev.saferetry.SafeRetryClient;
import dev.saferetry.error.Reason;
import dev.saferetry.error.SafeRetryException;
import dev.saferetry.resilience.Sleeper;
import dev.saferetry.spring.app.Orders;
import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.github.resilience4j.circuitbreaker.CircuitBreakerConfig;
import io.github.resilience4j.circuitbreaker.CircuitBreakerRegistry;
import io.github.resilience4j.core.registry.EntryAddedEvent;
import io.github.resilience4j.core.registry.EntryRemovedEvent;
import io.github.resilience4j.core.registry.EntryReplacedEvent;
import io.github.resilience4j.core.registry.RegistryEventConsumer;
import io.github.resilience4j.retry.RetryRegistry;
import io.github.resilience4j.springboot.circuitbreaker.autoconfigure.CircuitBreakerAutoConfiguration;
import io.github.resilience4j.springboot.retry.autoconfigure.RetryAutoConfiguration;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import mockwebserver3.MockResponse;
import mockwebserver3.MockWebServer;
import mockwebserver3.RecordedRequest;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * With resilience4j's Spring Boot support, a client's breaker and retry come from the registries by
 * its name, live in them, and still follow SafeRetry's safety rules.
 */
class Resilience4jRegistriesTest {
  private final MockWebServer provider = new MockWebServer();

  @BeforeEach
  void start() throws IOException {
    provider.start();
  }

  @AfterEach
  void stop() {
    provider.close();
  }

  /** Records the waits instead of sleeping, and the breakers the registry gains. */
  @Configuration(proxyBeanMethods = false)
  static class Probes {
    final List<Duration> waits = new CopyOnWriteArrayList<>();
    final List<String> added = new CopyOnWriteArrayList<>();

    @Bean
    SafeRetryClientCustomizer noSleep() {
      Sleeper recording = waits::add;
      return (name, builder) -> builder.sleeper(recording).jitter(() -> 0.5);
    }

    @Bean
    RegistryEventConsumer<CircuitBreaker> breakersAdded() {
      return new RegistryEventConsumer<>() {
        @Override
        public void onEntryAddedEvent(EntryAddedEvent<CircuitBreaker> e) {
          added.add(e.getAddedEntry().getName());
        }

        @Override
        public void onEntryRemovedEvent(EntryRemovedEvent<CircuitBreaker> e) {}

        @Override
        public void onEntryReplacedEvent(EntryReplacedEvent<CircuitBreaker> e) {}
      };
    }
  }

  private ApplicationContextRunner context() {
    return new ApplicationContextRunner()
        .withConfiguration(
            AutoConfigurations.of(
                CircuitBreakerAutoConfiguration.class,
                RetryAutoConfiguration.class,
                SafeRetryResilience4jAutoConfiguration.class,
                SafeRetryAutoConfiguration.class))
        .withUserConfiguration(Probes.class)
        .withPropertyValues(
            "saferetry.clients.payments.base-url=" + provider.url("/"),
            "saferetry.clients.payments.key-store.type=memory",
            "saferetry.clients.payments.breaker.sliding-window-size=50",
            "saferetry.clients.payments.retry.deadline=30s",
            "resilience4j.circuitbreaker.instances.payments.sliding-window-size=7",
            "resilience4j.circuitbreaker.instances.payments.minimum-number-of-calls=5",
            "resilience4j.circuitbreaker.instances.payments.failure-rate-threshold=30",
            "resilience4j.circuitbreaker.instances.payments.wait-duration-in-open-state=15s",
            "resilience4j.circuitbreaker.instances.payments.permitted-number-of-calls-in-half-open-state=2",
            "resilience4j.retry.instances.payments.max-attempts=4",
            "resilience4j.retry.instances.payments.wait-duration=200ms",
            "resilience4j.retry.instances.payments.enable-exponential-backoff=true",
            "resilience4j.retry.instances.payments.exponential-backoff-multiplier=3",
            // resilience4j would retry a 4xx's exception: SafeRetry's rules decide instead
            "resilience4j.retry.instances.payments.retry-exceptions=java.lang.Exception");
  }

  @Test
  void theBreakerAndRetryAreTheRegistriesInstancesWithTheirSettings() {
    context()
        .run(
            ctx -> {
              assertThat(ctx).hasNotFailed();
              SafeRetryClient payments = ctx.getBean("payments", SafeRetryClient.class);
              CircuitBreakerRegistry breakers = ctx.getBean(CircuitBreakerRegistry.class);
              RetryRegistry retries = ctx.getBean(RetryRegistry.class);
              assertThat(breakers.find("payments")).containsSame(payments.circuitBreaker());
              assertThat(retries.find("payments")).containsSame(payments.retry());
              assertThat(ctx.getBean(Probes.class).added).contains("payments");

              CircuitBreakerConfig c = payments.circuitBreaker().getCircuitBreakerConfig();
              assertThat(c.getSlidingWindowSize()).isEqualTo(7);
              assertThat(c.getMinimumNumberOfCalls()).isEqualTo(5);
              assertThat(c.getFailureRateThreshold()).isEqualTo(30f);
              assertThat(c.getPermittedNumberOfCallsInHalfOpenState()).isEqualTo(2);
              assertThat(c.getWaitIntervalFunctionInOpenState().apply(1)).isEqualTo(15_000L);
            });
  }

  @Test
  void retriesFollowTheRegistrysAttemptsAndBackoffWithOneKey() {
    for (int i = 0; i < 4; i++) {
      provider.enqueue(new MockResponse.Builder().code(503).body("{}").build());
    }
    context()
        .run(
            ctx -> {
              SafeRetryClient payments = ctx.getBean("payments", SafeRetryClient.class);
              assertThatThrownBy(
                      () ->
                          payments.execute(
                              Orders.CHARGE, Map.of("amount", 1), RequestOptions.none()))
                  .isInstanceOf(SafeRetryException.class);
              assertThat(provider.getRequestCount()).isEqualTo(4);
              String key = null;
              for (int i = 0; i < 4; i++) {
                RecordedRequest r = provider.takeRequest();
                if (key == null) {
                  key = r.getHeaders().get("Idempotency-Key");
                }
                assertThat(r.getHeaders().get("Idempotency-Key")).isEqualTo(key).isNotNull();
              }
              List<Duration> waits = ctx.getBean(Probes.class).waits;
              // full jitter at one half: half of 200 ms, then growing threefold
              assertThat(waits)
                  .containsExactly(
                      Duration.ofMillis(100), Duration.ofMillis(300), Duration.ofMillis(900));
            });
  }

  @Test
  void aDefinitiveRejectionIsNeverRetriedWhateverTheRegistrySays() {
    provider.enqueue(
        new MockResponse.Builder()
            .code(400)
            .setHeader("Content-Type", "application/json")
            .body("{\"error\":{\"code\":\"card_declined\"}}")
            .build());
    context()
        .run(
            ctx -> {
              SafeRetryClient payments = ctx.getBean("payments", SafeRetryClient.class);
              assertThatThrownBy(
                      () ->
                          payments.execute(
                              Orders.CHARGE, Map.of("amount", 1), RequestOptions.none()))
                  .isInstanceOf(SafeRetryException.class);
              assertThat(provider.getRequestCount()).isEqualTo(1);
            });
  }

  @Test
  void anUnboundedExponentialBackoffEndsAtTheDeadlineNotInAnOverflow() {
    // No exponential-max-wait-duration: resilience4j's waits grow a thousandfold per attempt, far
    // past what a long holds in nanoseconds; the call still ends with a typed reason.
    for (int i = 0; i < 3; i++) {
      provider.enqueue(new MockResponse.Builder().code(503).body("{}").build());
    }
    context()
        .withPropertyValues(
            "resilience4j.retry.instances.payments.max-attempts=40",
            "resilience4j.retry.instances.payments.exponential-backoff-multiplier=1000")
        .run(
            ctx -> {
              assertThat(ctx).hasNotFailed();
              SafeRetryClient payments = ctx.getBean("payments", SafeRetryClient.class);
              assertThatThrownBy(
                      () ->
                          payments.execute(
                              Orders.CHARGE, Map.of("amount", 1), RequestOptions.none()))
                  .isInstanceOfSatisfying(
                      SafeRetryException.class,
                      e -> assertThat(e.reason()).isEqualTo(Reason.DEADLINE_EXCEEDED));
              // 100 ms waited (half of 200 ms); the next wait, half of 200 s, is past the 30 s
              // deadline
              assertThat(ctx.getBean(Probes.class).waits).containsExactly(Duration.ofMillis(100));
              assertThat(provider.getRequestCount()).isEqualTo(2);
            });
  }
}
