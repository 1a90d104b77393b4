package dev.saferetry.testing.provider;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.saferetry.CallResult;
import dev.saferetry.Operation;
import dev.saferetry.RequestOptions;
import dev.saferetry.SafeRetryClient;
import dev.saferetry.error.ApiException;
import dev.saferetry.error.IdempotencyKeyReusedException;
import dev.saferetry.testing.FakeTime;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The Stripe dialect on the wire, met by SafeRetry's Stripe preset and by plain HTTP. */
class StripeDialectTest {
  record Customer(String id, String email) {}

  record Charge(
      String id,
      long amount,
      String currency,
      String status,
      Object customer,
      Map<String, String> metadata) {}

  @SuppressWarnings("unchecked")
  private static final Class<Map<String, Object>> PARAMS =
      (Class<Map<String, Object>>) (Class<?>) Map.class;

  static final Operation<Map<String, Object>, Customer> CREATE_CUSTOMER =
      Operation.post("/v1/customers", PARAMS, Customer.class);
  static final Operation<Map<String, Object>, Charge> CREATE_CHARGE =
      Operation.post("/v1/charges", PARAMS, Charge.class);

  private final FakeProvider provider = FakeProvider.builder().dialect(Dialect.STRIPE).start();
  private final FakeTime time = new FakeTime();
  private final SafeRetryClient stripe = Clients.stripe(provider, time).build();
  private final RawHttp raw = RawHttp.stripe(provider);

  @AfterEach
  void stop() {
    stripe.close();
    provider.close();
  }

  @Test
  void aFormEncodedChargeSurvivesALostAnswerAsOneChargeWithItsCustomerExpanded() {
    Customer customer =
        stripe
            .execute(
                CREATE_CUSTOMER,
                Map.of("email", "amy@example.com"),
                RequestOptions.none().withHeader("Stripe-Account", "acct_1"))
            .value();
    provider.arm(Fault.loseAnswer().on("POST /v1/charges"));

    CallResult<Charge> charge =
        stripe.execute(
            CREATE_CHARGE,
            Map.of(
                "amount", 2000,
                "currency", "eur",
                "customer", customer.id(),
                "metadata", Map.of("order_id", "6735"),
                "expand", List.of("customer")),
            RequestOptions.none()
                .withIntentId("order-6735/charge")
                .withHeader("Stripe-Account", "acct_1"));

    assertThat(charge.replayed()).isTrue();
    assertThat(charge.value().metadata()).containsEntry("order_id", "6735");
    assertThat(charge.value().customer()).isInstanceOf(Map.class);
    assertThat(provider.effectsPerOperation())
        .containsEntry("POST /v1/charges", 1)
        .containsEntry("POST /v1/customers", 1);
    Received first =
        provider.received().stream()
            .filter(r -> r.path().equals("/v1/charges"))
            .findFirst()
            .orElseThrow();
    assertThat(first.parameters())
        .containsEntry("metadata", Map.of("order_id", "6735"))
        .containsEntry("expand", List.of("customer"))
        .containsEntry("amount", "2000");
    provider.assertOneKeyPerIntent();
  }

  @Test
  void aKeyReusedWithOtherParametersIsStripesIdempotencyErrorAndTheClientsKeyReusedException() {
    RequestOptions key = RequestOptions.none().withIdempotencyKey("order-1-charge");
    stripe.execute(CREATE_CHARGE, Map.of("amount", 1000, "currency", "eur"), key);

    assertThatThrownBy(
            () -> stripe.execute(CREATE_CHARGE, Map.of("amount", 9999, "currency", "eur"), key))
        .isInstanceOf(IdempotencyKeyReusedException.class);
    RawHttp.Reply reply =
        raw.form(
            "POST", "/v1/charges", "amount=9999&currency=eur", "Idempotency-Key", "order-1-charge");
    assertThat(reply.status()).isEqualTo(400);
    assertThat(reply.body().at("/error/type").asText()).isEqualTo("idempotency_error");
    assertThat(reply.header("Stripe-Should-Retry")).isEqualTo("false");
    assertThat(provider.effects()).hasSize(1);
  }

  @Test
  void theSameKeyAndParametersReplayTheAnswerMarkedWithANewRequestIdAndTheVersionEchoed() {
    RawHttp.Reply first =
        raw.form(
            "POST",
            "/v1/charges",
            "currency=eur&amount=500&metadata[a]=1",
            "Idempotency-Key",
            "k-1",
            "Stripe-Version",
            "2025-03-31.basil");
    RawHttp.Reply again =
        raw.form(
            "POST",
            "/v1/charges",
            "amount=500&metadata%5Ba%5D=1&currency=eur",
            "Idempotency-Key",
            "k-1",
            "Stripe-Version",
            "2025-03-31.basil");

    assertThat(first.status()).isEqualTo(200);
    assertThat(first.header("Idempotent-Replayed")).isNull();
    assertThat(again.header("Idempotent-Replayed")).isEqualTo("true");
    assertThat(again.body()).isEqualTo(first.body());
    assertThat(first.header("Request-Id"))
        .startsWith("req_")
        .isNotEqualTo(again.header("Request-Id"));
    assertThat(again.header("Stripe-Version")).isEqualTo("2025-03-31.basil");
    assertThat(provider.received()).extracting(Received::replayed).containsExactly(false, true);
    assertThat(provider.effects()).hasSize(1);
  }

  @Test
  void aRequestWhileItsKeyIsInProgressGets409WithStripeShouldRetry() throws Exception {
    provider.arm(Fault.hangBeforeCommit());
    Thread first =
        new Thread(
            () -> raw.form("POST", "/v1/customers", "email=a@b.c", "Idempotency-Key", "k-2"));
    first.start();
    assertThat(provider.awaitHeld(java.time.Duration.ofSeconds(10))).isTrue();

    RawHttp.Reply busy = raw.form("POST", "/v1/customers", "email=a@b.c", "Idempotency-Key", "k-2");
    provider.releaseHeld();
    first.join();

    assertThat(busy.status()).isEqualTo(409);
    assertThat(busy.body().at("/error/code").asText()).isEqualTo("idempotency_key_in_use");
    assertThat(busy.header("Stripe-Should-Retry")).isEqualTo("true");
    assertThat(provider.effects()).hasSize(1);
  }

  @Test
  void aDeclinedCardIs402AndItsRetryIsTheStoredDecline() {
    Map<String, Object> params =
        Map.of("amount", 700, "currency", "usd", "source", "tok_chargeDeclined");
    RequestOptions intent = RequestOptions.none().withIntentId("order-7/charge");

    assertThatThrownBy(() -> stripe.execute(CREATE_CHARGE, params, intent))
        .isInstanceOfSatisfying(
            ApiException.class,
            e -> {
              assertThat(e.status()).isEqualTo(402);
              assertThat(e.errorCode()).isEqualTo("card_declined");
            });
    assertThatThrownBy(() -> stripe.execute(CREATE_CHARGE, params, intent))
        .isInstanceOf(ApiException.class);

    assertThat(provider.received()).extracting(Received::status).containsExactly(402, 402);
    assertThat(provider.received()).extracting(Received::replayed).containsExactly(false, true);
    assertThat(provider.effects())
        .singleElement()
        .satisfies(e -> assertThat(e.objectId()).startsWith("ch_"));
  }

  @Test
  void unknownParametersAndAMissingApiKeyAreRefusedAsStripeRefusesThem() {
    RawHttp.Reply unknown = raw.form("POST", "/v1/charges", "amount=1&currency=eur&colour=red");
    RawHttp.Reply keyless =
        new RawHttp(provider.baseUrl(), Map.of())
            .form("POST", "/v1/charges", "amount=1&currency=eur");
    RawHttp.Reply json = raw.json("POST", "/v1/charges", "{\"amount\":1}");
    RawHttp.Reply nowhere = raw.get("/v1/nothing");

    assertThat(unknown.status()).isEqualTo(400);
    assertThat(unknown.body().at("/error/code").asText()).isEqualTo("parameter_unknown");
    assertThat(unknown.body().at("/error/param").asText()).isEqualTo("colour");
    assertThat(keyless.status()).isEqualTo(401);
    assertThat(json.status()).isEqualTo(400);
    assertThat(nowhere.status()).isEqualTo(404);
    assertThat(nowhere.body().at("/error/message").asText()).contains("Unrecognized request URL");
    assertThat(provider.effects()).isEmpty();
  }

  @Test
  void aConnectedAccountHasItsOwnObjects() {
    String id =
        raw.form("POST", "/v1/charges", "amount=100&currency=eur", "Stripe-Account", "acct_A")
            .body()
            .get("id")
            .asText();

    assertThat(raw.get("/v1/charges/" + id, "Stripe-Account", "acct_A").status()).isEqualTo(200);
    assertThat(raw.get("/v1/charges/" + id, "Stripe-Account", "acct_B").status()).isEqualTo(404);
    assertThat(raw.get("/v1/charges/" + id).status()).isEqualTo(404);
  }
}
