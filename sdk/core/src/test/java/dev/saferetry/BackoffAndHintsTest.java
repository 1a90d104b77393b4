package dev.saferetry;

import static dev.saferetry.testing.Answers.charge;
import static dev.saferetry.testing.Answers.drain;
import static dev.saferetry.testing.Answers.status;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.saferetry.call.Attempt;
import dev.saferetry.error.OutcomeUnknownException;
import dev.saferetry.error.Reason;
import dev.saferetry.examples.payments.ChargeCreateParams;
import dev.saferetry.examples.payments.Charges;
import dev.saferetry.resilience.RetryPolicy;
import dev.saferetry.testing.Answers;
import java.time.Duration;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import mockwebserver3.MockResponse;
import org.junit.jupiter.api.Test;

class BackoffAndHintsTest extends BothPaths {
  private static final ChargeCreateParams PARAMS = ChargeCreateParams.of(1000, "eur");

  private static MockResponse withHeader(int code, String name, String value) {
    return new MockResponse.Builder().code(code).setHeader(name, value).body("{}").build();
  }

  @Test
  void delaysGoThroughTheInjectedSleeper() throws Exception {
    server.enqueue(status(503));
    server.enqueue(status(503));
    server.enqueue(status(503));
    server.enqueue(charge());

    CallResult<?> result = call(client, Charges.CREATE, PARAMS);

    // jitter fixed at 0.5: half of 500 ms, 1 s, 2 s
    assertThat(time.sleeps())
        .containsExactly(Duration.ofMillis(250), Duration.ofMillis(500), Duration.ofMillis(1000));
    assertThat(result.attempts())
        .extracting(Attempt::delayBefore)
        .containsExactly(
            Duration.ZERO, Duration.ofMillis(250), Duration.ofMillis(500), Duration.ofMillis(1000));
  }

  @Test
  void retryAfterSecondsReplacesTheComputedDelay() throws Exception {
    server.enqueue(withHeader(503, "Retry-After", "7"));
    server.enqueue(charge());
    call(client, Charges.CREATE, PARAMS);
    assertThat(time.sleeps()).containsExactly(Duration.ofSeconds(7));
    var keys = Answers.keys(drain(server), "Idempotency-Key");
    assertThat(keys).hasSize(2).doesNotContainNull();
    assertThat(keys.get(0)).isEqualTo(keys.get(1));
  }

  @Test
  void retryAfterHttpDateIsMeasuredFromTheClock() throws Exception {
    String date =
        DateTimeFormatter.RFC_1123_DATE_TIME.format(
            time.instant().plusSeconds(12).atOffset(ZoneOffset.UTC));
    server.enqueue(withHeader(429, "Retry-After", date));
    server.enqueue(charge());
    call(client, Charges.CREATE, PARAMS);
    assertThat(time.sleeps()).containsExactly(Duration.ofSeconds(12));
  }

  @Test
  void retryAfterMsIsHonoured() throws Exception {
    server.enqueue(withHeader(503, "Retry-After-Ms", "1500"));
    server.enqueue(charge());
    call(client, Charges.CREATE, PARAMS);
    assertThat(time.sleeps()).containsExactly(Duration.ofMillis(1500));
  }

  @Test
  void retryAfterInThePastMeansNow() throws Exception {
    String date =
        DateTimeFormatter.RFC_1123_DATE_TIME.format(
            time.instant().minusSeconds(30).atOffset(ZoneOffset.UTC));
    server.enqueue(withHeader(503, "Retry-After", date));
    server.enqueue(charge());
    call(client, Charges.CREATE, PARAMS);
    assertThat(time.sleeps()).containsExactly(Duration.ZERO);
  }

  @Test
  void garbageRetryAfterFallsBackToBackoff() throws Exception {
    server.enqueue(withHeader(503, "Retry-After", "soon-ish"));
    server.enqueue(charge());
    call(client, Charges.CREATE, PARAMS);
    assertThat(time.sleeps()).containsExactly(Duration.ofMillis(250));
  }

  @Test
  void hintLongerThanTheCeilingIsNotSleptOn() throws Exception {
    server.enqueue(withHeader(503, "Retry-After", "3600"));
    assertThatThrownBy(() -> call(client, Charges.CREATE, PARAMS))
        .isInstanceOfSatisfying(
            OutcomeUnknownException.class,
            e -> {
              assertThat(e.retryAfter()).contains(Duration.ofHours(1));
              assertThat(e.key()).isNotNull();
              assertThat(e.attempts()).hasSize(1);
            });
    assertThat(time.sleeps()).isEmpty();
    assertThat(server.getRequestCount()).isEqualTo(1);
  }

  @Test
  void noRetryIsScheduledPastTheDeadline() throws Exception {
    server.enqueue(withHeader(503, "Retry-After", "20"));
    server.enqueue(withHeader(503, "Retry-After", "20"));
    server.enqueue(withHeader(503, "Retry-After", "20"));
    try (SafeRetryClient c =
        builder()
            .retryPolicy(RetryPolicy.defaults().withDeadline(Duration.ofSeconds(45)))
            .build()) {
      assertThatThrownBy(() -> call(c, Charges.CREATE, PARAMS))
          .isInstanceOfSatisfying(
              OutcomeUnknownException.class, e -> assertThat(e.getMessage()).contains("deadline"));
    }
    // t=0 and t=20 and t=40 are within 45 s; a retry at t=60 would pass the deadline
    assertThat(time.sleeps()).containsExactly(Duration.ofSeconds(20), Duration.ofSeconds(20));
    assertThat(server.getRequestCount()).isEqualTo(3);
  }

  @Test
  void shouldRetryFalseStopsARetryableStatusWithoutCallingItFailed() throws Exception {
    server.enqueue(withHeader(503, "X-Should-Retry", "false"));
    assertThatThrownBy(() -> call(client, Charges.CREATE, PARAMS))
        .isInstanceOfSatisfying(
            OutcomeUnknownException.class,
            e -> {
              assertThat(e.reason()).isEqualTo(Reason.SERVER_SAID_DO_NOT_RETRY);
              assertThat(e.response().orElseThrow().status()).isEqualTo(503);
            });
    assertThat(server.getRequestCount()).isEqualTo(1);
  }

  @Test
  void shouldRetryTrueRetriesAnOtherwiseFinalStatus() throws Exception {
    server.enqueue(withHeader(400, "X-Should-Retry", "true"));
    server.enqueue(charge());
    CallResult<?> r = call(client, Charges.CREATE, PARAMS);
    assertThat(r.attempts()).extracting(Attempt::status).containsExactly(400, 200);
  }

  @Test
  void shouldRetryHeaderNameIsConfigurable() throws Exception {
    server.enqueue(withHeader(503, "Stripe-Should-Retry", "false"));
    try (SafeRetryClient c = builder().shouldRetryHeaders("Stripe-Should-Retry").build()) {
      assertThatThrownBy(() -> call(c, Charges.CREATE, PARAMS))
          .isInstanceOfSatisfying(
              OutcomeUnknownException.class,
              e -> assertThat(e.reason()).isEqualTo(Reason.SERVER_SAID_DO_NOT_RETRY));
    }
    assertThat(server.getRequestCount()).isEqualTo(1);
  }

  @Test
  void maxAttemptsBoundsTheRequestsSent() throws Exception {
    for (int i = 0; i < 6; i++) {
      server.enqueue(status(502));
    }
    try (SafeRetryClient c =
        builder().retryPolicy(RetryPolicy.defaults().withMaxAttempts(2)).build()) {
      assertThatThrownBy(() -> call(c, Charges.CREATE, PARAMS))
          .isInstanceOf(OutcomeUnknownException.class);
    }
    assertThat(server.getRequestCount()).isEqualTo(2);
  }
}
