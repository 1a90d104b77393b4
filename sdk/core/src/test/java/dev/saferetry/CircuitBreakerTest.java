package dev.saferetry;

import static dev.saferetry.testing.Answers.charge;
import static dev.saferetry.testing.Answers.status;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.saferetry.call.Outcome;
import dev.saferetry.error.ApiException;
import dev.saferetry.error.CallFailedException;
import dev.saferetry.error.OutcomeUnknownException;
import dev.saferetry.error.Reason;
import dev.saferetry.examples.payments.ChargeCreateParams;
import dev.saferetry.examples.payments.Charges;
import dev.saferetry.resilience.BreakerPolicy;
import dev.saferetry.resilience.RetryPolicy;
import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.github.resilience4j.circuitbreaker.CircuitBreaker.StateTransition;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

class CircuitBreakerTest extends BothPaths {
  private static final ChargeCreateParams PARAMS = ChargeCreateParams.of(1000, "eur");
  private final List<StateTransition> changes = new CopyOnWriteArrayList<>();

  private SafeRetryClient breakerClient(int window, RetryPolicy retry) {
    SafeRetryClient client =
        builder()
            .breakerPolicy(
                BreakerPolicy.defaults()
                    .withSlidingWindowSize(window)
                    .withMinimumCalls(window)
                    .withWaitInOpenState(Duration.ofSeconds(30))
                    .withHalfOpenProbes(1))
            .retryPolicy(retry)
            .build();
    client
        .circuitBreaker()
        .getEventPublisher()
        .onStateTransition(e -> changes.add(e.getStateTransition()));
    return client;
  }

  @Test
  void aReplayedServerErrorIsNotCountedAsAFailure() {
    try (SafeRetryClient c = breakerClient(4, RetryPolicy.noRetries())) {
      for (int i = 0; i < 6; i++) {
        server.enqueue(
            new mockwebserver3.MockResponse.Builder()
                .code(503)
                .setHeader("Idempotent-Replayed", "true")
                .build());
        assertThatThrownBy(() -> call(c, Charges.CREATE, PARAMS))
            .isInstanceOfSatisfying(
                OutcomeUnknownException.class,
                e -> assertThat(e.reason()).isEqualTo(Reason.PROVIDER_STORED_ERROR));
      }
      assertThat(c.circuitBreaker().getState()).isEqualTo(CircuitBreaker.State.CLOSED);
      assertThat(server.getRequestCount()).isEqualTo(6);
    }
    assertThat(changes).isEmpty();
  }

  @Test
  void opensFailsFastWithoutIoAndRecoversAfterAProbe() {
    try (SafeRetryClient c = breakerClient(4, RetryPolicy.noRetries())) {
      for (int i = 0; i < 4; i++) {
        server.enqueue(status(503));
        assertThatThrownBy(() -> call(c, Charges.CREATE, PARAMS))
            .isInstanceOf(OutcomeUnknownException.class);
      }
      assertThat(c.circuitBreaker().getState()).isEqualTo(CircuitBreaker.State.OPEN);

      assertThatThrownBy(() -> call(c, Charges.CREATE, PARAMS))
          .isInstanceOfSatisfying(
              CallFailedException.class,
              e -> {
                assertThat(e.reason()).isEqualTo(Reason.CIRCUIT_OPEN);
                assertThat(e.key()).isNotNull();
                assertThat(e.attempts()).isEmpty();
                assertThat(e.outcome()).isEqualTo(Outcome.FAILED);
              });
      assertThat(server.getRequestCount()).isEqualTo(4);

      time.advance(Duration.ofSeconds(31));
      server.enqueue(charge());
      assertThat(call(c, Charges.CREATE, PARAMS).status()).isEqualTo(200);
      assertThat(c.circuitBreaker().getState()).isEqualTo(CircuitBreaker.State.CLOSED);
      assertThat(server.getRequestCount()).isEqualTo(5);
    }
    assertThat(changes)
        .containsExactly(
            StateTransition.CLOSED_TO_OPEN,
            StateTransition.OPEN_TO_HALF_OPEN,
            StateTransition.HALF_OPEN_TO_CLOSED);
  }

  @Test
  void aRetrySequenceStopsAsSoonAsTheBreakerOpens() {
    for (int i = 0; i < 4; i++) {
      server.enqueue(status(503));
    }
    try (SafeRetryClient c = breakerClient(2, RetryPolicy.defaults())) {
      assertThatThrownBy(() -> call(c, Charges.CREATE, PARAMS))
          .isInstanceOfSatisfying(
              OutcomeUnknownException.class,
              e -> {
                assertThat(e.reason()).isEqualTo(Reason.CIRCUIT_OPEN_AFTER_SEND);
                assertThat(e.attempts()).hasSize(2);
                assertThat(e.outcome()).isEqualTo(Outcome.UNKNOWN);
              });
    }
    assertThat(server.getRequestCount()).isEqualTo(2);
    assertThat(time.sleeps()).hasSize(1);
  }

  @Test
  void clientErrorsNeverOpenTheBreaker() {
    try (SafeRetryClient c = breakerClient(2, RetryPolicy.noRetries())) {
      for (int i = 0; i < 6; i++) {
        server.enqueue(status(i % 2 == 0 ? 400 : 422));
        assertThatThrownBy(() -> call(c, Charges.CREATE, PARAMS)).isInstanceOf(ApiException.class);
      }
      assertThat(c.circuitBreaker().getState()).isEqualTo(CircuitBreaker.State.CLOSED);
    }
    assertThat(server.getRequestCount()).isEqualTo(6);
  }

  @Test
  void aFailedHalfOpenProbeOpensItAgain() {
    try (SafeRetryClient c = breakerClient(2, RetryPolicy.noRetries())) {
      server.enqueue(status(500));
      server.enqueue(status(500));
      for (int i = 0; i < 2; i++) {
        assertThatThrownBy(() -> call(c, Charges.CREATE, PARAMS))
            .isInstanceOf(OutcomeUnknownException.class);
      }
      time.advance(Duration.ofSeconds(31));
      server.enqueue(status(503));
      assertThatThrownBy(() -> call(c, Charges.CREATE, PARAMS))
          .isInstanceOf(OutcomeUnknownException.class);
      assertThat(c.circuitBreaker().getState()).isEqualTo(CircuitBreaker.State.OPEN);
      assertThatThrownBy(() -> call(c, Charges.CREATE, PARAMS))
          .isInstanceOfSatisfying(
              CallFailedException.class,
              e -> assertThat(e.reason()).isEqualTo(Reason.CIRCUIT_OPEN));
    }
    assertThat(server.getRequestCount()).isEqualTo(3);
  }
}
