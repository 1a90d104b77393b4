package dev.saferetry.testing.provider;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.saferetry.CallResult;
import dev.saferetry.RequestOptions;
import dev.saferetry.SafeRetryClient;
import dev.saferetry.call.Attempt;
import dev.saferetry.error.OutcomeUnknownException;
import dev.saferetry.error.Reason;
import dev.saferetry.examples.payments.Charge;
import dev.saferetry.examples.payments.ChargeCreateParams;
import dev.saferetry.examples.payments.PaymentsClient;
import dev.saferetry.resilience.TransportFailure;
import dev.saferetry.testing.FakeTime;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Each fault, met by a real SafeRetry client through the quick start's typed client: what the wire
 * shows (requests, keys, replays) and what the provider did (one effect).
 */
class FaultsThroughAClientTest {
  private static final ChargeCreateParams PARAMS =
      new ChargeCreateParams(1999, "eur", "order 123", null);

  private final FakeProvider provider = FakeProvider.start();
  private final FakeTime time = new FakeTime();
  private final SafeRetryClient client = Clients.json(provider, time).build();
  private final PaymentsClient payments = new PaymentsClient(client);

  @AfterEach
  void stop() {
    client.close();
    provider.close();
  }

  private static RequestOptions intent() {
    return RequestOptions.none().withIntentId("order-123/charge");
  }

  @Test
  void aLostAnswerAfterCommitIsReplayedOnTheRetryAndMakesOneCharge() {
    provider.arm(Fault.loseAnswer());

    CallResult<Charge> charge = payments.charges().create(PARAMS, intent());

    assertThat(charge.attempts())
        .extracting(Attempt::failure)
        .first()
        .isEqualTo(TransportFailure.UNEXPECTED_EOF);
    assertThat(charge.replayed()).isTrue();
    List<Received> received = provider.received();
    assertThat(received).extracting(Received::key).hasSize(2).containsOnly(charge.key().value());
    assertThat(received).extracting(Received::replayed).containsExactly(false, true);
    assertThat(provider.effects())
        .singleElement()
        .satisfies(
            e -> {
              assertThat(e.operation()).isEqualTo("POST /v1/charges");
              assertThat(e.objectId()).isEqualTo(charge.value().id());
              assertThat(e.key()).isEqualTo(charge.key().value());
            });
    provider.assertOneKeyPerIntent();
  }

  @Test
  void aServerErrorAfterCommitIsRetriedAndReplayedAndMakesOneCharge() {
    provider.arm(Fault.failAfterCommit(500));

    CallResult<Charge> charge = payments.charges().create(PARAMS, intent());

    assertThat(charge.attempts()).extracting(Attempt::status).containsExactly(500, 201);
    assertThat(charge.replayed()).isTrue();
    assertThat(provider.received())
        .extracting(Received::key)
        .hasSize(2)
        .containsOnly(charge.key().value());
    assertThat(provider.effects()).hasSize(1);
    assertThat(provider.effectsPerKey())
        .containsExactly(java.util.Map.entry(charge.key().value(), 1));
  }

  @Test
  void aServerErrorBeforeCommitIsRetriedAndTheRetryMakesTheOneCharge() {
    provider.arm(Fault.failBeforeCommit(503).times(2));

    CallResult<Charge> charge = payments.charges().create(PARAMS, intent());

    assertThat(charge.attempts()).extracting(Attempt::status).containsExactly(503, 503, 201);
    assertThat(charge.replayed()).isFalse();
    assertThat(provider.received())
        .extracting(Received::key)
        .hasSize(3)
        .containsOnly(charge.key().value());
    assertThat(provider.effects()).hasSize(1);
  }

  @Test
  void aHangEndsWithTheClientsTimeoutAndTheRetryIsReplayed() {
    try (SafeRetryClient impatient =
        Clients.json(provider, time)
            .okHttpClient(
                new okhttp3.OkHttpClient.Builder().readTimeout(Duration.ofMillis(200)).build())
            .build()) {
      provider.arm(Fault.hang());

      CallResult<Charge> charge = new PaymentsClient(impatient).charges().create(PARAMS, intent());

      assertThat(charge.attempts())
          .extracting(Attempt::failure)
          .first()
          .isEqualTo(TransportFailure.READ_TIMEOUT);
      assertThat(charge.replayed()).isTrue();
      assertThat(provider.received())
          .extracting(Received::key)
          .hasSize(2)
          .containsOnly(charge.key().value());
      assertThat(provider.effects()).hasSize(1);
    }
  }

  @Test
  void aRateLimitIsRetriedAfterItsRetryAfterAndThenCharges() {
    provider.arm(Fault.rateLimit(Duration.ofSeconds(3)));

    CallResult<Charge> charge = payments.charges().create(PARAMS, intent());

    assertThat(charge.attempts()).extracting(Attempt::status).containsExactly(429, 201);
    assertThat(time.sleeps()).containsExactly(Duration.ofSeconds(3));
    assertThat(provider.received()).extracting(Received::status).containsExactly(429, 201);
    assertThat(provider.received()).extracting(Received::key).containsOnly(charge.key().value());
    assertThat(provider.effects()).hasSize(1);
  }

  @Test
  void aRetryWhileTheFirstAttemptIsHeldBeforeCommitGetsInProgress() throws Exception {
    provider.arm(Fault.hangBeforeCommit());
    CompletableFuture<CallResult<Charge>> first = payments.charges().createAsync(PARAMS, intent());
    assertThat(provider.awaitHeld(Duration.ofSeconds(10))).isTrue();

    RequestOptions once = intent().withMaxAttempts(1);
    assertThatThrownBy(() -> payments.charges().create(PARAMS, once))
        .isInstanceOfSatisfying(
            OutcomeUnknownException.class,
            e -> assertThat(e.reason()).isEqualTo(Reason.IN_PROGRESS));
    provider.releaseHeld();

    CallResult<Charge> charge = first.join();
    assertThat(charge.status()).isEqualTo(201);
    assertThat(provider.received())
        .extracting(Received::status)
        .containsExactlyInAnyOrder(409, 201);
    assertThat(provider.effects()).hasSize(1);
  }
}
