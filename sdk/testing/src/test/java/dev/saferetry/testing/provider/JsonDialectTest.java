package dev.saferetry.testing.provider;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.saferetry.CallResult;
import dev.saferetry.Operation;
import dev.saferetry.RequestOptions;
import dev.saferetry.SafeRetryClient;
import dev.saferetry.error.IdempotencyKeyReusedException;
import dev.saferetry.examples.payments.Charge;
import dev.saferetry.examples.payments.ChargeCreateParams;
import dev.saferetry.examples.payments.PaymentsClient;
import dev.saferetry.examples.payments.Refund;
import dev.saferetry.examples.payments.RefundCreateParams;
import dev.saferetry.idempotency.KeyPlacement;
import dev.saferetry.testing.FakeTime;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The reference payments API's dialect: its endpoints, its idempotency rules, key placement. */
class JsonDialectTest {
  private final FakeTime time = new FakeTime();

  @Test
  void theQuickStartsTypedClientChargesReadsBackAndRefunds() {
    try (FakeProvider provider = FakeProvider.start();
        SafeRetryClient client = Clients.json(provider, time).build()) {
      PaymentsClient payments = new PaymentsClient(client);

      CallResult<Charge> charge =
          payments.charges().create(new ChargeCreateParams(1999, "EUR", "order 123", "cus_1"));
      Charge read = payments.charges().retrieve(charge.value().id()).value();
      CallResult<Refund> refund =
          payments.refunds().create(new RefundCreateParams(charge.value().id(), 500));

      assertThat(charge.status()).isEqualTo(201);
      assertThat(read).isEqualTo(charge.value());
      assertThat(read.currency()).isEqualTo("eur");
      assertThat(refund.value().amount()).isEqualTo(500);
      assertThat(payments.charges().retrieve(read.id()).value().amountRefunded()).isEqualTo(500);
      assertThat(provider.effectsPerOperation())
          .containsExactly(Map.entry("POST /v1/charges", 1), Map.entry("POST /v1/refunds", 1));
    }
  }

  @Test
  void aKeyReusedWithAnotherBodyIsTheClientsIdempotencyKeyReusedException() {
    try (FakeProvider provider = FakeProvider.start();
        SafeRetryClient client = Clients.json(provider, time).build()) {
      PaymentsClient payments = new PaymentsClient(client);
      RequestOptions key = RequestOptions.none().withIdempotencyKey("order-9-charge");
      payments.charges().create(ChargeCreateParams.of(1000, "eur"), key);

      assertThatThrownBy(() -> payments.charges().create(ChargeCreateParams.of(2000, "eur"), key))
          .isInstanceOf(IdempotencyKeyReusedException.class);
      assertThat(provider.received()).extracting(Received::status).containsExactly(201, 422);
      assertThat(provider.effects()).hasSize(1);
    }
  }

  @Test
  void theSameKeyAndBodyInAnotherOrderReplayTheStoredAnswerWithItsLocation() {
    try (FakeProvider provider = FakeProvider.start()) {
      RawHttp raw = new RawHttp(provider.baseUrl(), Map.of("Authorization", "Bearer t1"));
      RawHttp.Reply first =
          raw.json(
              "POST",
              "/v1/charges",
              "{\"amount\":100,\"currency\":\"eur\"}",
              "Idempotency-Key",
              "k");
      RawHttp.Reply again =
          raw.json(
              "POST",
              "/v1/charges",
              "{\"currency\":\"eur\", \"amount\":100}",
              "Idempotency-Key",
              "\"k\"");

      assertThat(again.status()).isEqualTo(201);
      assertThat(again.header("Idempotent-Replayed")).isEqualTo("true");
      assertThat(again.header("Location")).isEqualTo(first.header("Location"));
      assertThat(again.body()).isEqualTo(first.body());
      assertThat(provider.effects()).hasSize(1);
    }
  }

  @Test
  void aRequestRefusedBeforeAnyWorkReleasesItsKeyForTheCorrectedRequest() {
    try (FakeProvider provider = FakeProvider.start()) {
      RawHttp raw = new RawHttp(provider.baseUrl(), Map.of());
      RawHttp.Reply bad =
          raw.json(
              "POST",
              "/v1/charges",
              "{\"amount\":100,\"currency\":\"euro\"}",
              "Idempotency-Key",
              "k");
      RawHttp.Reply fixed =
          raw.json(
              "POST",
              "/v1/charges",
              "{\"amount\":100,\"currency\":\"eur\"}",
              "Idempotency-Key",
              "k");

      assertThat(bad.status()).isEqualTo(400);
      assertThat(fixed.status()).isEqualTo(201);
      assertThat(fixed.header("Idempotent-Replayed")).isNull();
      assertThat(provider.effects()).hasSize(1);
    }
  }

  @Test
  void eachCredentialHasItsOwnKeysAndObjects() {
    try (FakeProvider provider = FakeProvider.start()) {
      String body = "{\"amount\":100,\"currency\":\"eur\"}";
      RawHttp one = new RawHttp(provider.baseUrl(), Map.of("Authorization", "Bearer one"));
      RawHttp two = new RawHttp(provider.baseUrl(), Map.of("Authorization", "Bearer two"));
      String id =
          one.json("POST", "/v1/charges", body, "Idempotency-Key", "k").body().get("id").asText();
      RawHttp.Reply other = two.json("POST", "/v1/charges", body, "Idempotency-Key", "k");

      assertThat(other.header("Idempotent-Replayed")).isNull();
      assertThat(two.get("/v1/charges/" + id).status()).isEqualTo(404);
      assertThat(provider.effects()).hasSize(2);
    }
  }

  @Test
  void aKeyInAPayPalRequestIdHeaderSurvivesALostAnswer() {
    try (FakeProvider provider = FakeProvider.builder().keyHeader("PayPal-Request-Id").start();
        SafeRetryClient client =
            Clients.json(provider, time)
                .keyPlacement(KeyPlacement.header("PayPal-Request-Id"))
                .build()) {
      provider.arm(Fault.loseAnswer());

      CallResult<Charge> charge =
          new PaymentsClient(client).charges().create(ChargeCreateParams.of(4200, "usd"));

      assertThat(charge.replayed()).isTrue();
      assertThat(provider.received()).extracting(Received::key).containsOnly(charge.key().value());
      assertThat(provider.effects()).hasSize(1);
    }
  }

  record Payment(String id, String status) {}

  record PaymentRequest(Map<String, Object> amount_money, String source_id) {}

  @Test
  void aKeyInASquareBodyFieldSurvivesALostAnswerOnAnEndpointOfYourOwn() {
    Operation<PaymentRequest, Payment> createPayment =
        Operation.post("/v2/payments", PaymentRequest.class, Payment.class);
    try (FakeProvider provider =
            FakeProvider.builder()
                .keyBodyField("idempotency_key")
                .endpoint(
                    "POST /v2/payments",
                    p -> {
                      if (!p.containsKey("source_id")) {
                        throw new IllegalArgumentException("source_id is required");
                      }
                      return Map.of("id", "pay_" + p.get("source_id"), "status", "COMPLETED");
                    })
                .start();
        SafeRetryClient client =
            Clients.json(provider, time)
                .keyPlacement(KeyPlacement.bodyField("idempotency_key"))
                .build()) {
      provider.arm(Fault.failAfterCommit(502).on("POST /v2/payments"));

      CallResult<Payment> payment =
          client.execute(
              createPayment,
              new PaymentRequest(Map.of("amount", 100, "currency", "USD"), "cnon_1"),
              RequestOptions.none());

      assertThat(payment.value()).isEqualTo(new Payment("pay_cnon_1", "COMPLETED"));
      assertThat(payment.replayed()).isTrue();
      assertThat(provider.received()).extracting(Received::key).containsOnly(payment.key().value());
      assertThat(provider.received().get(0).parameters()).doesNotContainKey("idempotency_key");
      assertThat(provider.effects())
          .singleElement()
          .satisfies(e -> assertThat(e.objectId()).isEqualTo("pay_cnon_1"));
      RawHttp.Reply refused =
          new RawHttp(provider.baseUrl(), Map.of()).json("POST", "/v2/payments", "{}");
      assertThat(refused.status()).isEqualTo(400);
      assertThat(refused.body().at("/error/message").asText()).isEqualTo("source_id is required");
    }
  }

  @Test
  void aKeyOlderThanItsRetentionIsANewRequestAndOneEffectPerKeyFails() {
    try (FakeProvider provider =
        FakeProvider.builder().clock(time).keyRetention(Duration.ofHours(24)).start()) {
      RawHttp raw = new RawHttp(provider.baseUrl(), Map.of());
      String body = "{\"amount\":100,\"currency\":\"eur\"}";
      raw.json("POST", "/v1/charges", body, "Idempotency-Key", "old-key");
      time.advance(Duration.ofHours(25));
      RawHttp.Reply again = raw.json("POST", "/v1/charges", body, "Idempotency-Key", "old-key");

      assertThat(again.header("Idempotent-Replayed")).isNull();
      assertThat(provider.effectsPerKey()).containsExactly(Map.entry("old-key", 2));
      assertThatThrownBy(provider::assertOneEffectPerKey)
          .isInstanceOf(AssertionError.class)
          .hasMessageContaining("2 effects under key old-key");
    }
  }

  @Test
  void aProviderThatRequiresKeysRefusesAWriteWithoutOneAndDoesNothing() {
    try (FakeProvider provider = FakeProvider.builder().requireKey(true).start()) {
      RawHttp raw = new RawHttp(provider.baseUrl(), Map.of());
      RawHttp.Reply keyless =
          raw.json("POST", "/v1/charges", "{\"amount\":100,\"currency\":\"eur\"}");

      assertThat(keyless.status()).isEqualTo(400);
      assertThat(keyless.body().at("/error/message").asText()).contains("Idempotency-Key");
      assertThat(raw.get("/v1/charges").status()).isEqualTo(200);
      assertThat(provider.effects()).isEmpty();
    }
  }
}
