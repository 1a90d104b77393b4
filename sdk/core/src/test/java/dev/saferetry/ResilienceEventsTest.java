package dev.saferetry;

import static dev.saferetry.testing.Answers.charge;
import static dev.saferetry.testing.Answers.status;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.saferetry.error.ApiException;
import dev.saferetry.error.OutcomeUnknownException;
import dev.saferetry.examples.payments.ChargeCreateParams;
import dev.saferetry.examples.payments.Charges;
import dev.saferetry.resilience.BreakerPolicy;
import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.github.resilience4j.circuitbreaker.CircuitBreakerRegistry;
import io.github.resilience4j.retry.Retry;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/**
 * The client's resilience4j retry and circuit breaker are the real ones its calls go through: their
 * event publishers fire on calls over the wire, and the breaker can be registered in a user's
 * registry.
 */
class ResilienceEventsTest extends BothPaths {
  private static final ChargeCreateParams PARAMS = ChargeCreateParams.of(1000, "eur");

  @Test
  void theRetryPublishesEveryDecisionOfRealCalls() {
    List<String> events = new CopyOnWriteArrayList<>();
    Retry retry = client.retry();
    retry
        .getEventPublisher()
        .onRetry(
            e -> events.add("retry " + e.getNumberOfRetryAttempts() + " " + e.getWaitInterval()))
        .onSuccess(e -> events.add("success after " + e.getNumberOfRetryAttempts()))
        .onError(e -> events.add("error"))
        .onIgnoredError(e -> events.add("ignored"));

    server.enqueue(status(503));
    server.enqueue(charge());
    call(client, Charges.CREATE, PARAMS);
    server.enqueue(status(400));
    assertThatThrownBy(() -> call(client, Charges.CREATE, PARAMS)).isInstanceOf(ApiException.class);
    for (int i = 0; i < 4; i++) {
      server.enqueue(status(503));
    }
    assertThatThrownBy(() -> call(client, Charges.CREATE, PARAMS))
        .isInstanceOf(OutcomeUnknownException.class);

    assertThat(events)
        .containsExactly(
            "retry 1 PT0.25S",
            "success after 1",
            "ignored",
            "retry 1 PT0.25S",
            "retry 2 PT0.5S",
            "retry 3 PT1S",
            "error");
    assertThat(server.getRequestCount()).isEqualTo(7);
  }

  @Test
  void theCircuitBreakerInAUsersRegistryCountsRealCalls() {
    CircuitBreakerRegistry registry = CircuitBreakerRegistry.ofDefaults();
    try (SafeRetryClient c =
        builder()
            .name("payments")
            .breakerPolicy(
                BreakerPolicy.defaults()
                    .withSlidingWindowSize(2)
                    .withMinimumCalls(2)
                    .withWaitInOpenState(Duration.ofSeconds(30)))
            .build()) {
      registry.circuitBreaker("payments");
      registry.replace("payments", c.circuitBreaker());
      CircuitBreaker breaker = registry.circuitBreaker("payments");
      assertThat(breaker).isSameAs(c.circuitBreaker());
      List<String> events = new CopyOnWriteArrayList<>();
      breaker
          .getEventPublisher()
          .onSuccess(e -> events.add("success"))
          .onError(e -> events.add("error"))
          .onStateTransition(e -> events.add(e.getStateTransition().toString()));

      server.enqueue(charge());
      call(c, Charges.CREATE, PARAMS);
      server.enqueue(status(503));
      server.enqueue(status(503));
      assertThatThrownBy(() -> call(c, Charges.CREATE, PARAMS))
          .isInstanceOf(OutcomeUnknownException.class);

      assertThat(events)
          .containsExactly("success", "error", "State transition from CLOSED to OPEN");
      assertThat(registry.circuitBreaker("payments").getState())
          .isEqualTo(CircuitBreaker.State.OPEN);
      assertThat(breaker.getMetrics().getNumberOfFailedCalls()).isGreaterThan(0);
    }
  }
}
