package dev.saferetry.provider;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.saferetry.CallResult;
import dev.saferetry.Operation;
import dev.saferetry.ProviderPreset;
import dev.saferetry.RequestOptions;
import dev.saferetry.SafeRetryClient;
import dev.saferetry.error.ApiException;
import dev.saferetry.error.IdempotencyKeyReusedException;
import dev.saferetry.error.OutcomeUnknownException;
import dev.saferetry.error.Reason;
import dev.saferetry.resilience.BreakerPolicy;
import dev.saferetry.testing.FakeTime;
import java.util.Map;
import mockwebserver3.MockResponse;
import mockwebserver3.MockWebServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Each preset reads its provider's answers as the provider documents them. */
class PresetAnswersTest {
  @SuppressWarnings("unchecked")
  private static final Class<Map<String, Object>> MAP =
      (Class<Map<String, Object>>) (Class<?>) Map.class;

  private static final Operation<Map<String, Object>, Map<String, Object>> CREATE =
      Operation.post("/v1/payments", MAP, MAP);
  private static final Map<String, Object> BODY = Map.of("amount", 1000);

  private MockWebServer server;

  @BeforeEach
  void start() throws Exception {
    server = new MockWebServer();
    server.start(0);
  }

  @AfterEach
  void stop() {
    server.close();
  }

  private SafeRetryClient client(ProviderPreset preset) {
    FakeTime time = new FakeTime();
    return SafeRetryClient.builder()
        .baseUrl(server.url("/").toString())
        .preset(preset)
        .clock(time)
        .sleeper(time)
        .jitter(() -> 0.5)
        .breakerPolicy(BreakerPolicy.disabled())
        .build();
  }

  private static MockResponse answer(int status, String header, String value, String body) {
    MockResponse.Builder b =
        new MockResponse.Builder().code(status).setHeader("Content-Type", "application/json");
    if (header != null) {
      b.setHeader(header, value);
    }
    return b.body(body).build();
  }

  @Test
  void stripeReplayMarkerRequestIdKeyReusedAndShouldRetry() {
    try (SafeRetryClient c = client(ProviderPreset.stripe())) {
      server.enqueue(answer(200, "Idempotent-Replayed", "true", "{\"id\":\"ch_1\"}"));
      CallResult<Map<String, Object>> r = c.execute(CREATE, BODY);
      assertThat(r.replayed()).isTrue();

      server.enqueue(
          answer(400, "Request-Id", "req_9", "{\"error\":{\"type\":\"idempotency_error\"}}"));
      assertThatThrownBy(() -> c.execute(CREATE, BODY))
          .isInstanceOfSatisfying(
              IdempotencyKeyReusedException.class,
              e -> assertThat(e.response().orElseThrow().serverRequestId()).isEqualTo("req_9"));

      // Stripe-Should-Retry: true makes a 400 retryable; false stops a 503, whose outcome stays
      // unknown: the hint does not prove that nothing happened.
      server.enqueue(answer(400, "Stripe-Should-Retry", "true", "{\"error\":{}}"));
      server.enqueue(answer(200, null, null, "{\"id\":\"ch_2\"}"));
      assertThat(c.execute(CREATE, BODY).attempts()).hasSize(2);
      server.enqueue(answer(503, "Stripe-Should-Retry", "false", "{\"error\":{}}"));
      assertThatThrownBy(() -> c.execute(CREATE, BODY))
          .isInstanceOfSatisfying(
              OutcomeUnknownException.class,
              e -> assertThat(e.reason()).isEqualTo(Reason.SERVER_SAID_DO_NOT_RETRY));
    }
  }

  @Test
  void payPalKeyReusedAndDebugId() {
    try (SafeRetryClient c = client(ProviderPreset.payPal())) {
      server.enqueue(
          answer(
              422,
              "PayPal-Debug-Id",
              "dbg_1",
              "{\"name\":\"UNPROCESSABLE_ENTITY\",\"details\":[{\"issue\":"
                  + "\"PAYPAL_REQUEST_ID_PREVIOUSLY_USED\"}]}"));
      assertThatThrownBy(() -> c.execute(CREATE, BODY))
          .isInstanceOfSatisfying(
              IdempotencyKeyReusedException.class,
              e -> assertThat(e.response().orElseThrow().serverRequestId()).isEqualTo("dbg_1"));
      server.enqueue(answer(422, null, null, "{\"name\":\"UNPROCESSABLE_ENTITY\"}"));
      assertThatThrownBy(() -> c.execute(CREATE, BODY))
          .isInstanceOf(ApiException.class)
          .isNotInstanceOf(IdempotencyKeyReusedException.class);
    }
  }

  @Test
  void adyenKeyLengthAndRequestIdFromTheErrorBody() {
    try (SafeRetryClient c = client(ProviderPreset.adyen())) {
      assertThatThrownBy(
              () ->
                  c.execute(CREATE, BODY, RequestOptions.none().withIdempotencyKey("k".repeat(65))))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("64");
      assertThat(server.getRequestCount()).isZero();
      server.enqueue(answer(422, null, null, "{\"status\":422,\"requestId\":\"adyen_req_1\"}"));
      assertThatThrownBy(() -> c.execute(CREATE, BODY))
          .isInstanceOfSatisfying(
              ApiException.class,
              e ->
                  assertThat(e.response().orElseThrow().serverRequestId())
                      .isEqualTo("adyen_req_1"));
    }
  }

  @Test
  void squareRetriesATemporaryErrorAndRecognisesAReusedKey() {
    try (SafeRetryClient c = client(ProviderPreset.square())) {
      server.enqueue(answer(400, null, null, "{\"errors\":[{\"code\":\"TEMPORARY_ERROR\"}]}"));
      server.enqueue(answer(200, null, null, "{\"id\":\"p_1\"}"));
      assertThat(c.execute(CREATE, BODY).attempts()).hasSize(2);
      server.enqueue(
          answer(400, null, null, "{\"errors\":[{\"code\":\"IDEMPOTENCY_KEY_REUSED\"}]}"));
      assertThatThrownBy(() -> c.execute(CREATE, BODY))
          .isInstanceOf(IdempotencyKeyReusedException.class);
    }
  }

  @Test
  void checkoutComInProgressAndRequestId() {
    try (SafeRetryClient c = client(ProviderPreset.checkoutCom())) {
      for (int i = 0; i < 4; i++) {
        server.enqueue(answer(409, "Cko-Request-Id", "cko_1", "{}"));
      }
      assertThatThrownBy(() -> c.execute(CREATE, BODY))
          .isInstanceOfSatisfying(
              OutcomeUnknownException.class,
              e -> {
                assertThat(e.reason()).isEqualTo(Reason.IN_PROGRESS);
                assertThat(e.response().orElseThrow().serverRequestId()).isEqualTo("cko_1");
              });
    }
  }

  @Test
  void goCardlessConflictNamingTheExistingResourceIsASuccess() {
    try (SafeRetryClient c = client(ProviderPreset.goCardless())) {
      server.enqueue(
          answer(
              409,
              null,
              null,
              "{\"error\":{\"code\":409,\"type\":\"invalid_state\",\"request_id\":\"gc_req_1\","
                  + "\"errors\":[{\"reason\":\"idempotent_creation_conflict\","
                  + "\"links\":{\"conflicting_resource_id\":\"PM000123\"}}]}}"));
      CallResult<Map<String, Object>> r =
          c.execute(CREATE, BODY, RequestOptions.none().withIntentId("order-1/payment"));
      assertThat(r.existingResource()).contains("PM000123");
      assertThat(r.value()).isNull();
      assertThat(r.status()).isEqualTo(409);
      assertThat(r.response().serverRequestId()).isEqualTo("gc_req_1");
      assertThat(r.attempts()).hasSize(1);
      assertThat(c.pendingIntents()).isEmpty();
    }
  }
}
