package dev.saferetry.provider;

import static org.assertj.core.api.Assertions.assertThat;

import dev.saferetry.CallResult;
import dev.saferetry.Operation;
import dev.saferetry.ProviderPreset;
import dev.saferetry.RequestOptions;
import dev.saferetry.SafeRetryClient;
import dev.saferetry.resilience.BreakerPolicy;
import dev.saferetry.testing.Answers;
import dev.saferetry.testing.FakeTime;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import mockwebserver3.MockWebServer;
import mockwebserver3.RecordedRequest;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every preset sends the request its provider documents — method, path, query, headers, content
 * type and body bytes — on the first attempt and, after a lost answer, on the retry: the same key
 * and byte-identical body.
 */
class PresetWireTest {
  private static final String API_KEY = "sk_test_presetwire_0123456789";
  private static final String KEY = "order-6735-charge-1";

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

  /** What a provider's documentation says the request looks like. */
  record Expected(
      ProviderPreset preset,
      Map<String, String> headers,
      List<String> absentHeaders,
      String contentType,
      String body) {
    @Override
    public String toString() {
      return preset.name();
    }
  }

  static Stream<Expected> presets() {
    String json = "{\"amount\":1000,\"currency\":\"eur\",\"metadata\":{\"order_id\":\"6735\"}}";
    String jsonType = "application/json; charset=utf-8";
    return Stream.of(
        new Expected(
            ProviderPreset.stripe(),
            Map.of("Idempotency-Key", KEY, "Authorization", "Bearer " + API_KEY),
            List.of(),
            "application/x-www-form-urlencoded;charset=UTF-8",
            "amount=1000&currency=eur&metadata[order_id]=6735"),
        new Expected(
            ProviderPreset.payPal(),
            Map.of("PayPal-Request-Id", KEY, "Authorization", "Bearer " + API_KEY),
            List.of("Idempotency-Key"),
            jsonType,
            json),
        new Expected(
            ProviderPreset.adyen(),
            Map.of("Idempotency-Key", KEY, "X-API-Key", API_KEY),
            List.of("Authorization"),
            jsonType,
            json),
        new Expected(
            ProviderPreset.square(),
            Map.of("Authorization", "Bearer " + API_KEY),
            List.of("Idempotency-Key"),
            jsonType,
            "{\"amount\":1000,\"currency\":\"eur\",\"metadata\":{\"order_id\":\"6735\"},"
                + "\"idempotency_key\":\""
                + KEY
                + "\"}"),
        new Expected(
            ProviderPreset.checkoutCom(),
            Map.of("Cko-Idempotency-Key", KEY, "Authorization", API_KEY),
            List.of("Idempotency-Key"),
            jsonType,
            json),
        new Expected(
            ProviderPreset.goCardless(),
            Map.of(
                "Idempotency-Key",
                KEY,
                "Authorization",
                "Bearer " + API_KEY,
                "GoCardless-Version",
                "2015-07-06"),
            List.of(),
            jsonType,
            json));
  }

  @SuppressWarnings("unchecked")
  private static final Class<Map<String, Object>> MAP =
      (Class<Map<String, Object>>) (Class<?>) Map.class;

  @ParameterizedTest(name = "{0}")
  @MethodSource("presets")
  void theDocumentedRequestOnTheFirstAttemptAndOnTheRetry(Expected e) throws Exception {
    FakeTime time = new FakeTime();
    server.enqueue(Answers.dropAfterRequest());
    server.enqueue(Answers.json(200, "{\"id\":\"res_1\"}"));
    Operation<Map<String, Object>, Map<String, Object>> create =
        Operation.post("/v1/payments", MAP, MAP);
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("amount", 1000);
    body.put("currency", "eur");
    body.put("metadata", Map.of("order_id", "6735"));
    CallResult<Map<String, Object>> result;
    try (SafeRetryClient client =
        SafeRetryClient.builder()
            .baseUrl(server.url("/").toString())
            .preset(e.preset())
            .apiKey(API_KEY)
            .clock(time)
            .sleeper(time)
            .jitter(() -> 0.5)
            .breakerPolicy(BreakerPolicy.disabled())
            .build()) {
      result =
          client.execute(
              create,
              body,
              RequestOptions.none().withIdempotencyKey(KEY).withQueryParam("expand[]", "customer"));
    }
    assertThat(result.attempts()).hasSize(2);
    assertThat(result.value()).containsEntry("id", "res_1");
    List<RecordedRequest> sent = Answers.drain(server);
    assertThat(sent).hasSize(2);
    for (RecordedRequest r : sent) {
      assertThat(r.getMethod()).isEqualTo("POST");
      assertThat(r.getUrl().encodedPath()).isEqualTo("/v1/payments");
      assertThat(r.getUrl().encodedQuery()).isEqualTo("expand[]=customer");
      e.headers()
          .forEach((name, value) -> assertThat(r.getHeaders().get(name)).as(name).isEqualTo(value));
      e.absentHeaders().forEach(name -> assertThat(r.getHeaders().get(name)).as(name).isNull());
      assertThat(r.getHeaders().get("Content-Type")).isEqualTo(e.contentType());
      assertThat(r.getHeaders().get("Accept")).isEqualTo("application/json");
      assertThat(r.getBody().utf8()).isEqualTo(e.body());
    }
    assertThat(sent.get(1).getBody()).isEqualTo(sent.get(0).getBody());
    assertThat(sent.get(1).getHeaders().get("X-Request-Id"))
        .isNotEqualTo(sent.get(0).getHeaders().get("X-Request-Id"));
  }
}
