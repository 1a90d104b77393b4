package dev.saferetry;

import static dev.saferetry.testing.Answers.charge;
import static dev.saferetry.testing.Answers.status;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.saferetry.error.OutcomeUnknownException;
import dev.saferetry.error.Reason;
import dev.saferetry.examples.payments.ChargeCreateParams;
import dev.saferetry.examples.payments.Charges;
import dev.saferetry.filestore.FileKeyStore;
import dev.saferetry.idempotency.IdempotencyKey;
import dev.saferetry.idempotency.IntentRecord;
import dev.saferetry.idempotency.IntentScope;
import dev.saferetry.resilience.RetryPolicy;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Intent time never runs backwards, and a retention is checked when the client is built. */
class IntentTimeTest extends ClientFixture {
  private static final ChargeCreateParams PARAMS = new ChargeCreateParams(1000, "eur", "o", null);
  private static final RequestOptions ORDER_1 = RequestOptions.none().withIntentId("order-1");

  @TempDir Path dir;

  @Test
  void aClockSteppedBackDoesNotLetAnExpiredPendingIntentBeResentWithItsStaleKey() throws Exception {
    try (SafeRetryClient c = builder().retryPolicy(RetryPolicy.noRetries()).build()) {
      leavePendingPastItsRetention(c);
      assertThatThrownBy(() -> c.execute(Charges.CREATE, PARAMS, ORDER_1))
          .isInstanceOfSatisfying(
              OutcomeUnknownException.class,
              e -> assertThat(e.reason()).isEqualTo(Reason.INTENT_EXPIRED));

      time.advance(Duration.ofHours(-2)); // e.g. a time server corrects a clock that ran fast
      server.enqueue(charge());
      String output =
          LogCapture.of(
              () ->
                  assertThatThrownBy(() -> c.execute(Charges.CREATE, PARAMS, ORDER_1))
                      .isInstanceOfSatisfying(
                          OutcomeUnknownException.class,
                          e -> assertThat(e.reason()).isEqualTo(Reason.INTENT_EXPIRED)));
      assertThat(output).contains("WARN").contains("clock went back");
    }
    assertThat(server.getRequestCount()).isEqualTo(1);
  }

  @Test
  void aClockSteppedBackAfterAnotherCallStillSeesThePendingIntentExpired() throws Exception {
    try (SafeRetryClient c = builder().retryPolicy(RetryPolicy.noRetries()).build()) {
      leavePendingPastItsRetention(c);
      server.enqueue(charge());
      c.execute(Charges.CREATE, PARAMS, RequestOptions.none().withIntentId("order-2"));

      time.advance(Duration.ofHours(-3));
      assertThatThrownBy(() -> c.execute(Charges.CREATE, PARAMS, ORDER_1))
          .isInstanceOfSatisfying(
              OutcomeUnknownException.class,
              e -> assertThat(e.reason()).isEqualTo(Reason.INTENT_EXPIRED));
      IntentRecord later =
          c.keyStore()
              .find(new IntentScope("default", "POST /v1/charges"), "order-2")
              .orElseThrow();
      assertThat(later.createdAt()).isEqualTo(Instant.parse("2026-01-02T01:00:00Z"));
    }
    assertThat(server.getRequestCount()).isEqualTo(2);
  }

  @Test
  void aClockSteppedBackAcrossARestartDoesNotLetAnExpiredPendingIntentBeResent() throws Exception {
    try (FileKeyStore store = FileKeyStore.open(dir);
        SafeRetryClient c =
            builder().keyStore(store).retryPolicy(RetryPolicy.noRetries()).build()) {
      leavePendingPastItsRetention(c);
      server.enqueue(charge()); // another intent, recorded 25 hours later
      c.execute(Charges.CREATE, PARAMS, RequestOptions.none().withIntentId("order-2"));
    } // the process stops

    time.advance(Duration.ofHours(-3)); // and starts again with a clock 3 hours behind
    server.enqueue(charge());
    try (FileKeyStore store = FileKeyStore.open(dir);
        SafeRetryClient c =
            builder().keyStore(store).retryPolicy(RetryPolicy.noRetries()).build()) {
      assertThatThrownBy(() -> c.execute(Charges.CREATE, PARAMS, ORDER_1))
          .isInstanceOfSatisfying(
              OutcomeUnknownException.class,
              e -> assertThat(e.reason()).isEqualTo(Reason.INTENT_EXPIRED));
    }
    assertThat(server.getRequestCount()).isEqualTo(2); // order-1 once, order-2 once: no re-send
  }

  /** order-1's answer is lost (it stays pending), then 25 hours pass: past the 24 h retention. */
  private void leavePendingPastItsRetention(SafeRetryClient c) {
    server.enqueue(status(503));
    assertThatThrownBy(() -> c.execute(Charges.CREATE, PARAMS, ORDER_1))
        .isInstanceOf(OutcomeUnknownException.class);
    time.advance(Duration.ofHours(25));
  }

  @ParameterizedTest
  @ValueSource(longs = {Long.MAX_VALUE, 3651L * 86_400, 0, -1})
  void aRetentionThatIsNotPositiveOrBeyondTenYearsFailsAtBuildNotAtCallTime(long seconds) {
    assertThatThrownBy(() -> builder().intentRetention(Duration.ofSeconds(seconds)).build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("intentRetention")
        .hasMessageContaining("at most 3650 days");
  }

  @Test
  void theLongestRetentionWorksAtCallTime() {
    server.enqueue(charge());
    try (SafeRetryClient c = builder().intentRetention(IntentRecord.MAX_RETENTION).build()) {
      assertThat(c.execute(Charges.CREATE, PARAMS, ORDER_1).status()).isEqualTo(200);
    }
    assertThatThrownBy(
            () ->
                IntentRecord.pending(
                    new IntentScope("default", "op"),
                    "order-1",
                    IdempotencyKey.random(),
                    "fp",
                    Instant.MAX.minusSeconds(10),
                    Duration.ofHours(1)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("beyond the end of time");
    assertThatThrownBy(
            () ->
                IntentRecord.pending(
                    new IntentScope("default", "op"),
                    "order-1",
                    IdempotencyKey.random(),
                    "fp",
                    Instant.EPOCH,
                    Duration.ofSeconds(Long.MAX_VALUE)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("beyond the end of time");
  }

  @Test
  void anExpiryOfExactlyTheLastInstantIsAcceptedAndOneNanosecondMoreIsNot() {
    IntentScope scope = new IntentScope("default", "op");
    Instant start = Instant.MAX.minusSeconds(3600).minusNanos(5);
    IntentRecord last =
        IntentRecord.pending(
            scope, "order-1", IdempotencyKey.random(), "fp", start, Duration.ofSeconds(3600, 5));
    assertThat(last.expiresAt()).isEqualTo(Instant.MAX);
    assertThatThrownBy(
            () ->
                IntentRecord.pending(
                    scope,
                    "order-1",
                    IdempotencyKey.random(),
                    "fp",
                    start,
                    Duration.ofSeconds(3600, 6)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("beyond the end of time");
    assertThatThrownBy(
            () ->
                IntentRecord.pending(
                    scope,
                    "order-1",
                    IdempotencyKey.random(),
                    "fp",
                    Instant.MIN,
                    Duration.ofSeconds(Long.MAX_VALUE, 999_999_999)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("beyond the end of time");
  }
}
