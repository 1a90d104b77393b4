package dev.saferetry.examples.support.stripe;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.saferetry.examples.support.stripe.StripeHttp.Answer;
import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The Stripe-shaped server's Idempotency-Key rules, over real HTTP. */
class StripeShapedIdempotencyTest {
  private static final String CHARGE = "amount=2000&currency=usd&metadata[order_id]=6735";
  private final StripeHttp stripe = new StripeHttp();

  @AfterEach
  void stop() {
    stripe.close();
  }

  @Test
  void aRetryWithTheSameKeyGetsTheFirstAnswerMarkedAsReplayed() throws IOException {
    Answer first = stripe.post("/v1/charges", CHARGE, "Idempotency-Key", "k-1");
    Answer again = stripe.post("/v1/charges", CHARGE, "Idempotency-Key", "k-1");
    assertThat(first.status()).isEqualTo(200);
    assertThat(first.header("Idempotent-Replayed")).isNull();
    assertThat(again.status()).isEqualTo(200);
    assertThat(again.header("Idempotent-Replayed")).isEqualTo("true");
    assertThat(again.body()).isEqualTo(first.body());
    assertThat(again.header("Request-Id"))
        .startsWith("req_")
        .isNotEqualTo(first.header("Request-Id"));
    assertThat(stripe.server.chargesCreated()).isEqualTo(1);
    assertThat(stripe.server.replays()).isEqualTo(1);
  }

  @Test
  void parametersAreComparedAsParsedNotAsBytes() throws IOException {
    stripe.post("/v1/charges", "amount=1&currency=usd&description=a+b", "Idempotency-Key", "k");
    Answer reordered =
        stripe.post(
            "/v1/charges", "description=a%20b&currency=usd&amount=1", "Idempotency-Key", "k");
    assertThat(reordered.header("Idempotent-Replayed")).isEqualTo("true");
    assertThat(stripe.server.chargesCreated()).isEqualTo(1);
  }

  @Test
  void theSameKeyWithAnotherPayloadIsAnIdempotencyError() throws IOException {
    stripe.post("/v1/charges", CHARGE, "Idempotency-Key", "k-2");
    Answer other = stripe.post("/v1/charges", "amount=2001&currency=usd", "Idempotency-Key", "k-2");
    assertThat(other.status()).isEqualTo(400);
    assertThat(other.json().at("/error/type").asText()).isEqualTo("idempotency_error");
    assertThat(stripe.server.chargesCreated()).isEqualTo(1);
  }

  @Test
  void accountAndVersionHeadersArePartOfTheIdentity() throws IOException {
    stripe.post("/v1/charges", CHARGE, "Idempotency-Key", "k-3", "Stripe-Account", "acct_1");
    Answer otherAccount =
        stripe.post("/v1/charges", CHARGE, "Idempotency-Key", "k-3", "Stripe-Account", "acct_2");
    Answer otherVersion =
        stripe.post(
            "/v1/charges",
            CHARGE,
            "Idempotency-Key",
            "k-3",
            "Stripe-Account",
            "acct_1",
            "Stripe-Version",
            "2025-01-27.acacia");
    assertThat(otherAccount.status()).isEqualTo(400);
    assertThat(otherVersion.status()).isEqualTo(400);
    assertThat(otherVersion.json().at("/error/type").asText()).isEqualTo("idempotency_error");
    assertThat(stripe.server.chargesCreated()).isEqualTo(1);
  }

  @Test
  void aRequestArrivingWhileTheFirstRunsGets409() throws Exception {
    StripeShapedServer.Hold hold = stripe.server.holdNextExecution();
    CompletableFuture<Answer> first =
        CompletableFuture.supplyAsync(
            () -> {
              try {
                return stripe.post("/v1/charges", CHARGE, "Idempotency-Key", "k-4");
              } catch (IOException e) {
                throw new IllegalStateException(e);
              }
            });
    assertThat(hold.awaitHeld(Duration.ofSeconds(10))).isTrue();
    Answer concurrent = stripe.post("/v1/charges", CHARGE, "Idempotency-Key", "k-4");
    hold.release();
    assertThat(concurrent.status()).isEqualTo(409);
    assertThat(concurrent.json().at("/error/type").asText()).isEqualTo("idempotency_error");
    assertThat(first.get(10, TimeUnit.SECONDS).status()).isEqualTo(200);
    Answer after = stripe.post("/v1/charges", CHARGE, "Idempotency-Key", "k-4");
    assertThat(after.header("Idempotent-Replayed")).isEqualTo("true");
    assertThat(stripe.server.chargesCreated()).isEqualTo(1);
  }

  @Test
  void aRequestRejectedBeforeWorkLeavesItsKeyFree() throws IOException {
    Answer missing = stripe.post("/v1/charges", "currency=usd", "Idempotency-Key", "k-5");
    assertThat(missing.status()).isEqualTo(400);
    assertThat(missing.json().at("/error/code").asText()).isEqualTo("parameter_missing");
    assertThat(missing.json().at("/error/param").asText()).isEqualTo("amount");
    Answer corrected = stripe.post("/v1/charges", CHARGE, "Idempotency-Key", "k-5");
    assertThat(corrected.status()).isEqualTo(200);
    assertThat(corrected.header("Idempotent-Replayed")).isNull();
  }

  @Test
  void anAnswerLostAfterCommitIsReplayedToTheRetry() throws IOException {
    stripe.server.loseNextResponses(1);
    assertThatThrownBy(() -> stripe.post("/v1/charges", CHARGE, "Idempotency-Key", "k-6"))
        .isInstanceOf(IOException.class);
    assertThat(stripe.server.chargesCreated()).isEqualTo(1);
    assertThat(stripe.server.lostResponses()).isEqualTo(1);
    Answer retry = stripe.post("/v1/charges", CHARGE, "Idempotency-Key", "k-6");
    assertThat(retry.status()).isEqualTo(200);
    assertThat(retry.header("Idempotent-Replayed")).isEqualTo("true");
    assertThat(stripe.server.chargesCreated()).isEqualTo(1);
  }

  @Test
  void withoutAKeyEveryPostIsANewCharge() throws IOException {
    stripe.post("/v1/charges", CHARGE);
    stripe.post("/v1/charges", CHARGE);
    assertThat(stripe.server.chargesCreated()).isEqualTo(2);
  }

  @Test
  void keysAreScopedToTheApiKey() throws IOException {
    stripe.post("/v1/charges", CHARGE, "Idempotency-Key", "k-7");
    Answer otherKey =
        stripe.post(
            "/v1/charges",
            CHARGE,
            "Idempotency-Key",
            "k-7",
            "Authorization",
            "Bearer sk_test_other");
    assertThat(otherKey.header("Idempotent-Replayed")).isNull();
    assertThat(stripe.server.chargesCreated()).isEqualTo(2);
  }

  @Test
  void aKeyOnAGetHasNoEffect() throws IOException {
    Answer list = stripe.get("/v1/charges", "Idempotency-Key", "k-8");
    Answer again = stripe.get("/v1/charges", "Idempotency-Key", "k-8");
    assertThat(list.status()).isEqualTo(200);
    assertThat(again.header("Idempotent-Replayed")).isNull();
  }
}
