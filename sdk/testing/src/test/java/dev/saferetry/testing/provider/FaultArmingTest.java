package dev.saferetry.testing.provider;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** How faults are armed: which requests they match, how often, in which order; reset and holds. */
class FaultArmingTest {
  private static final String CHARGE = "{\"amount\":100,\"currency\":\"eur\"}";

  private final FakeProvider provider = FakeProvider.start();
  private final RawHttp raw = new RawHttp(provider.baseUrl(), Map.of());

  @AfterEach
  void stop() {
    provider.close();
  }

  @Test
  void aFaultOnAnOperationWaitsForThatOperationAndLetsOthersThrough() {
    provider.arm(Fault.failBeforeCommit(503).on("POST /v1/refunds"));

    RawHttp.Reply charge = raw.json("POST", "/v1/charges", CHARGE);
    RawHttp.Reply read = raw.get("/v1/charges/" + charge.body().get("id").asText());
    RawHttp.Reply refund =
        raw.json(
            "POST", "/v1/refunds", "{\"charge\":\"" + charge.body().get("id").asText() + "\"}");

    assertThat(List.of(charge.status(), read.status(), refund.status()))
        .containsExactly(201, 200, 503);
    assertThat(provider.received())
        .extracting(Received::fault)
        .containsExactly(null, null, Fault.failBeforeCommit(503).on("POST /v1/refunds"));
    assertThat(provider.effectsPerOperation()).containsExactly(Map.entry("POST /v1/charges", 1));
    assertThat(provider.armed()).isEmpty();
  }

  @Test
  void aFaultForSeveralTimesAppliesToThatManyMatchingRequestsThenDisarms() {
    provider.arm(Fault.rateLimit(Duration.ofMillis(1500)).times(2));
    assertThat(provider.armed()).singleElement().satisfies(f -> assertThat(f.times()).isEqualTo(2));

    RawHttp.Reply first = raw.json("POST", "/v1/charges", CHARGE);
    assertThat(provider.armed()).singleElement().satisfies(f -> assertThat(f.times()).isEqualTo(1));
    RawHttp.Reply second = raw.get("/v1/charges");
    RawHttp.Reply third = raw.json("POST", "/v1/charges", CHARGE);

    assertThat(first.status()).isEqualTo(429);
    assertThat(first.header("Retry-After")).isEqualTo("2");
    assertThat(second.status()).isEqualTo(429);
    assertThat(third.status()).isEqualTo(201);
    assertThat(provider.armed()).isEmpty();
    assertThat(provider.effects()).hasSize(1);
  }

  @Test
  void anOutageLastsUntilDisarmedAndKeysAndEffectsStay() {
    raw.json("POST", "/v1/charges", CHARGE, "Idempotency-Key", "before");
    provider.arm(Fault.failBeforeCommit(503).times(1000));

    RawHttp.Reply during = raw.json("POST", "/v1/charges", CHARGE, "Idempotency-Key", "during");
    provider.disarm();
    RawHttp.Reply after = raw.json("POST", "/v1/charges", CHARGE, "Idempotency-Key", "during");
    RawHttp.Reply replay = raw.json("POST", "/v1/charges", CHARGE, "Idempotency-Key", "before");

    assertThat(during.status()).isEqualTo(503);
    assertThat(after.status()).isEqualTo(201);
    assertThat(replay.header("Idempotent-Replayed")).isEqualTo("true");
    assertThat(provider.armed()).isEmpty();
    assertThat(provider.received()).hasSize(4);
    assertThat(provider.effectsPerKey()).containsOnlyKeys("before", "during");
  }

  @Test
  void pathVariablesAndWildcardsMatchExactlyOneSegment() {
    provider.arm(Fault.failBeforeCommit(500).on("GET /v1/charges/{id}"));
    provider.arm(Fault.failBeforeCommit(502).on("/v1/*"));

    assertThat(raw.get("/v1/charges").status()).isEqualTo(502);
    assertThat(raw.get("/v1/charges/ch_1").status()).isEqualTo(500);
    assertThat(raw.get("/v1/charges/ch_1").status()).isEqualTo(404);
  }

  @Test
  void faultsMatchingTheSameRequestApplyInTheOrderArmed() {
    provider
        .arm(Fault.failAfterCommit(500))
        .arm(Fault.loseAnswer())
        .arm(Fault.failBeforeCommit(503));

    RawHttp.Reply first = raw.json("POST", "/v1/charges", CHARGE, "Idempotency-Key", "k");
    assertThatThrownBy(() -> raw.json("POST", "/v1/charges", CHARGE, "Idempotency-Key", "k"))
        .hasCauseInstanceOf(IOException.class);
    RawHttp.Reply third = raw.json("POST", "/v1/charges", CHARGE, "Idempotency-Key", "k");
    RawHttp.Reply fourth = raw.json("POST", "/v1/charges", CHARGE, "Idempotency-Key", "k");

    assertThat(first.status()).isEqualTo(500);
    assertThat(third.status()).isEqualTo(503);
    assertThat(fourth.status()).isEqualTo(201);
    assertThat(fourth.header("Idempotent-Replayed")).isEqualTo("true");
    assertThat(provider.received())
        .extracting(Received::replayed)
        .containsExactly(false, true, false, true);
    assertThat(provider.effects()).hasSize(1);
  }

  @Test
  void aHungAnswerIsSentWhenReleased() throws Exception {
    provider.arm(Fault.hang());
    CompletableFuture<RawHttp.Reply> call =
        CompletableFuture.supplyAsync(
            () -> raw.json("POST", "/v1/charges", CHARGE, "Idempotency-Key", "k"));
    assertThat(provider.awaitHeld(Duration.ofSeconds(10))).isTrue();
    assertThat(provider.effects()).hasSize(1);
    assertThat(call).isNotDone();

    provider.releaseHeld();

    assertThat(call.get().status()).isEqualTo(201);
    assertThat(provider.awaitHeld(Duration.ZERO)).isFalse();
  }

  @Test
  void resetForgetsKeysObjectsRequestsAndFaultsAndLetsHeldRequestsGo() throws Exception {
    String id =
        raw.json("POST", "/v1/charges", CHARGE, "Idempotency-Key", "k").body().get("id").asText();
    provider.arm(Fault.hangBeforeCommit().on("POST /v1/charges")).arm(Fault.loseAnswer());
    CompletableFuture<RawHttp.Reply> held =
        CompletableFuture.supplyAsync(
            () -> raw.json("POST", "/v1/charges", CHARGE, "Idempotency-Key", "held"));
    assertThat(provider.awaitHeld(Duration.ofSeconds(10))).isTrue();

    provider.reset();

    assertThat(held.get().status()).isEqualTo(503);
    assertThat(provider.armed()).isEmpty();
    assertThat(provider.received()).isEmpty();
    assertThat(provider.effects()).isEmpty();
    RawHttp.Reply again = raw.json("POST", "/v1/charges", CHARGE, "Idempotency-Key", "k");
    assertThat(again.header("Idempotent-Replayed")).isNull();
    assertThat(again.body().get("id").asText()).isEqualTo(id);
    assertThat(provider.effects()).hasSize(1);
  }

  @Test
  void anInvalidFaultIsRefusedWithWhatIsWrong() {
    assertThatThrownBy(() -> Fault.failAfterCommit(200)).hasMessageContaining("4xx or 5xx");
    assertThatThrownBy(() -> Fault.loseAnswer().on("charges")).hasMessageContaining("METHOD /path");
    assertThatThrownBy(() -> Fault.loseAnswer().on("post /v1/charges"))
        .hasMessageContaining("upper-case");
    assertThatThrownBy(() -> Fault.loseAnswer().on("/v1/{id"))
        .hasMessageContaining("whole segment");
    assertThatThrownBy(() -> Fault.hang().times(0)).hasMessageContaining("times");
    assertThatThrownBy(() -> Fault.hang().withRetryAfter(Duration.ofSeconds(1)))
        .hasMessageContaining("retryAfter");
    assertThatThrownBy(() -> Fault.rateLimit(Duration.ofSeconds(-1)))
        .hasMessageContaining("retryAfter");
    assertThatThrownBy(() -> FakeProvider.builder().keyHeader("Bad Header"))
        .hasMessageContaining("keyHeader");
    assertThatThrownBy(() -> FakeProvider.builder().endpoint("/v2/x", p -> p))
        .hasMessageContaining("method");
  }
}
