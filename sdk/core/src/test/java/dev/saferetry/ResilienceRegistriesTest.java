package dev.saferetry;

import static dev.saferetry.testing.Answers.charge;
import static dev.saferetry.testing.Answers.status;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.saferetry.error.ApiException;
import dev.saferetry.error.OutcomeUnknownException;
import dev.saferetry.error.SafeRetryException;
import dev.saferetry.examples.payments.ChargeCreateParams;
import dev.saferetry.examples.payments.Charges;
import dev.saferetry.resilience.BreakerPolicy;
import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.github.resilience4j.circuitbreaker.CircuitBreakerRegistry;
import io.github.resilience4j.circuitbreaker.ResultRecordedAsFailureException;
import io.github.resilience4j.retry.Retry;
import io.github.resilience4j.retry.RetryRegistry;
import java.io.IOException;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/**
 * The client's resilience4j retry and breaker judge its calls with what really happened, and can
 * live in the caller's registries: the retry's events carry the exception the caller got, its
 * metrics count the calls, the breaker records answers by its own result predicate and transport
 * failures with their exception.
 */
class ResilienceRegistriesTest extends BothPaths {
  private static final ChargeCreateParams PARAMS = ChargeCreateParams.of(1000, "eur");

  @Test
  void theRetrysEventsCarryTheExceptionTheCallerGotAndItsMetricsCountTheCalls() {
    List<Throwable> errors = new CopyOnWriteArrayList<>();
    List<Throwable> ignored = new CopyOnWriteArrayList<>();
    Retry retry = client.retry();
    retry
        .getEventPublisher()
        .onError(e -> errors.add(e.getLastThrowable()))
        .onIgnoredError(e -> ignored.add(e.getLastThrowable()));

    server.enqueue(charge());
    call(client, Charges.CREATE, PARAMS);
    server.enqueue(status(503));
    server.enqueue(charge());
    call(client, Charges.CREATE, PARAMS);
    server.enqueue(status(402));
    Throwable declined = catchThrown(() -> call(client, Charges.CREATE, PARAMS));
    for (int i = 0; i < 4; i++) {
      server.enqueue(status(503));
    }
    Throwable exhausted = catchThrown(() -> call(client, Charges.CREATE, PARAMS));

    assertThat(declined).isInstanceOf(ApiException.class);
    assertThat(exhausted).isInstanceOf(OutcomeUnknownException.class);
    assertThat(ignored).containsExactly(declined);
    assertThat(errors).containsExactly(exhausted);
    Retry.Metrics metrics = retry.getMetrics();
    assertThat(metrics.getNumberOfSuccessfulCallsWithoutRetryAttempt()).isEqualTo(1);
    assertThat(metrics.getNumberOfSuccessfulCallsWithRetryAttempt()).isEqualTo(1);
    assertThat(metrics.getNumberOfFailedCallsWithoutRetryAttempt()).isEqualTo(1);
    assertThat(server.getRequestCount()).isEqualTo(8);
  }

  @Test
  void theBreakerRecordsAFailingAnswerByItsResultPredicateAndNeverAnExceptionMadeForIt() {
    List<Throwable> recorded = new CopyOnWriteArrayList<>();
    try (SafeRetryClient c =
        builder().breakerPolicy(BreakerPolicy.defaults().withMinimumCalls(100)).build()) {
      c.circuitBreaker().getEventPublisher().onError(e -> recorded.add(e.getThrowable()));
      server.enqueue(status(503));
      server.enqueue(charge());
      call(c, Charges.CREATE, PARAMS);
      assertThat(c.circuitBreaker().getMetrics().getNumberOfFailedCalls()).isEqualTo(1);
      assertThat(c.circuitBreaker().getMetrics().getNumberOfSuccessfulCalls()).isEqualTo(1);
    }
    assertThat(recorded).singleElement().isInstanceOf(ResultRecordedAsFailureException.class);
  }

  @Test
  void aRefusedConnectionIsRecordedWithItsOwnRedactedException() throws Exception {
    List<Throwable> recorded = new CopyOnWriteArrayList<>();
    String closed = server.url("/").toString();
    server.close();
    try (SafeRetryClient c =
        builder()
            .baseUrl(closed)
            .breakerPolicy(BreakerPolicy.defaults().withMinimumCalls(100))
            .build()) {
      c.circuitBreaker().getEventPublisher().onError(e -> recorded.add(e.getThrowable()));
      assertThatThrownBy(() -> call(c, Charges.CREATE, PARAMS))
          .isInstanceOf(SafeRetryException.class);
    }
    assertThat(recorded).hasSize(4).allMatch(t -> t instanceof IOException);
  }

  @Test
  void theClientsRetryAndBreakerAreCreatedInTheCallersRegistriesUnderItsName() {
    RetryRegistry retries = RetryRegistry.ofDefaults();
    CircuitBreakerRegistry breakers = CircuitBreakerRegistry.ofDefaults();
    try (SafeRetryClient c =
        builder()
            .name("payments")
            .breakerPolicy(BreakerPolicy.defaults().withMinimumCalls(100))
            .retryRegistry(retries)
            .circuitBreakerRegistry(breakers)
            .build()) {
      assertThat(retries.find("payments")).containsSame(c.retry());
      assertThat(breakers.find("payments")).containsSame(c.circuitBreaker());
      server.enqueue(status(503));
      server.enqueue(charge());
      call(c, Charges.CREATE, PARAMS);
      assertThat(
              retries.retry("payments").getMetrics().getNumberOfSuccessfulCallsWithRetryAttempt())
          .isEqualTo(1);
      assertThat(breakers.circuitBreaker("payments").getMetrics().getNumberOfFailedCalls())
          .isEqualTo(1);
      try (SafeRetryClient derived = c.newBuilder().build()) {
        assertThat(derived.circuitBreaker()).isSameAs(c.circuitBreaker());
        assertThat(derived.retry()).isSameAs(c.retry());
      }
    }
  }

  @Test
  void aRegistryEntryOfTheClientsNameMadeForSomethingElseIsRefused() {
    RetryRegistry retries = RetryRegistry.ofDefaults();
    retries.retry("payments");
    assertThatThrownBy(() -> builder().name("payments").retryRegistry(retries).build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("retryRegistry")
        .hasMessageContaining("payments");
    CircuitBreakerRegistry breakers = CircuitBreakerRegistry.ofDefaults();
    CircuitBreaker theirs = breakers.circuitBreaker("payments");
    assertThatThrownBy(() -> builder().name("payments").circuitBreakerRegistry(breakers).build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("circuitBreakerRegistry");
    assertThat(breakers.circuitBreaker("payments")).isSameAs(theirs);
    assertThat(server.getRequestCount()).isZero();
  }

  private static Throwable catchThrown(Runnable call) {
    try {
      call.run();
    } catch (RuntimeException e) {
      return e;
    }
    throw new AssertionError("the call did not throw");
  }
}
