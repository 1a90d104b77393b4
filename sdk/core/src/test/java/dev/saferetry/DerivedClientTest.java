package dev.saferetry;

import static dev.saferetry.testing.Answers.charge;
import static dev.saferetry.testing.Answers.status;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.saferetry.error.CallFailedException;
import dev.saferetry.error.OutcomeUnknownException;
import dev.saferetry.error.Reason;
import dev.saferetry.examples.payments.ChargeCreateParams;
import dev.saferetry.examples.payments.Charges;
import dev.saferetry.resilience.BreakerPolicy;
import dev.saferetry.resilience.RetryBudgetPolicy;
import dev.saferetry.resilience.RetryPolicy;
import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import mockwebserver3.MockWebServer;
import org.junit.jupiter.api.Test;

/**
 * {@code newBuilder()} derives a client that shares every part whose settings it did not change:
 * connection pool, circuit breaker, retry budget, async executor. Closing one client never breaks
 * another that shares its parts; the last one to close frees them.
 */
class DerivedClientTest extends ClientFixture {
  private static final ChargeCreateParams PARAMS = ChargeCreateParams.of(1000, "eur");

  private SafeRetryClientBuilder fragile() {
    return builder()
        .retryPolicy(RetryPolicy.noRetries())
        .breakerPolicy(BreakerPolicy.defaults().withSlidingWindowSize(2).withMinimumCalls(2));
  }

  @Test
  void aDerivedClientSharesTheBreakerOfItsParent() {
    try (SafeRetryClient parent = fragile().build();
        SafeRetryClient derived = parent.newBuilder().apiKey("sk_test_other").build()) {
      server.enqueue(status(503));
      server.enqueue(status(503));
      for (int i = 0; i < 2; i++) {
        assertThatThrownBy(() -> parent.execute(Charges.CREATE, PARAMS))
            .isInstanceOf(OutcomeUnknownException.class);
      }
      assertThat(derived.circuitBreaker().getState()).isEqualTo(CircuitBreaker.State.OPEN);
      assertThatThrownBy(() -> derived.execute(Charges.CREATE, PARAMS))
          .isInstanceOfSatisfying(
              CallFailedException.class,
              e -> assertThat(e.reason()).isEqualTo(Reason.CIRCUIT_OPEN));
    }
    assertThat(server.getRequestCount()).isEqualTo(2);
  }

  @Test
  void anotherBaseUrlGetsItsOwnBreakerAndBudget() throws Exception {
    try (MockWebServer other = new MockWebServer()) {
      other.start(0);
      try (SafeRetryClient parent = fragile().build();
          SafeRetryClient derived =
              parent.newBuilder().baseUrl(other.url("/").toString()).build()) {
        server.enqueue(status(503));
        server.enqueue(status(503));
        for (int i = 0; i < 2; i++) {
          assertThatThrownBy(() -> parent.execute(Charges.CREATE, PARAMS));
        }
        assertThat(parent.circuitBreaker().getState()).isEqualTo(CircuitBreaker.State.OPEN);
        assertThat(derived.circuitBreaker().getState()).isEqualTo(CircuitBreaker.State.CLOSED);
      }
    }
  }

  @Test
  void aDerivedClientSharesTheRetryBudget() {
    try (SafeRetryClient parent =
            builder().retryBudget(RetryBudgetPolicy.defaults().withCapacity(1)).build();
        SafeRetryClient derived = parent.newBuilder().name("derived").build()) {
      server.enqueue(status(503));
      server.enqueue(charge());
      assertThat(parent.execute(Charges.CREATE, PARAMS).attempts()).hasSize(2); // spent the token
      server.enqueue(status(503));
      assertThatThrownBy(() -> derived.execute(Charges.CREATE, PARAMS))
          .isInstanceOfSatisfying(
              OutcomeUnknownException.class,
              e -> assertThat(e.reason()).isEqualTo(Reason.RETRY_BUDGET_EXHAUSTED));
    }
  }

  @Test
  void aDerivedClientSharesTheConnectionPool() throws Exception {
    server.enqueue(charge());
    server.enqueue(charge());
    try (SafeRetryClient parent = builder().build();
        SafeRetryClient derived = parent.newBuilder().apiKey("sk_test_other").build()) {
      parent.execute(Charges.CREATE, PARAMS);
      derived.execute(Charges.CREATE, PARAMS);
    }
    assertThat(server.takeRequest().getConnectionIndex()).isZero();
    assertThat(server.takeRequest().getConnectionIndex()).isZero(); // the parent's connection
  }

  @Test
  void closingTheParentLeavesTheDerivedClientWorkingAndTheLastCloseFreesTheParts()
      throws Exception {
    server.enqueue(charge());
    SafeRetryClient parent = builder().build();
    SafeRetryClient derived = parent.newBuilder().apiKey("sk_test_other").build();
    parent.close();
    assertThat(derived.executeAsync(Charges.CREATE, PARAMS).get(30, TimeUnit.SECONDS).status())
        .isEqualTo(200);
    derived.close();
    assertThat(derived.executeAsync(Charges.CREATE, PARAMS)).failsWithin(Duration.ofSeconds(30));
    assertThat(server.getRequestCount()).isEqualTo(1);
  }
}
