package dev.saferetry;

import static dev.saferetry.testing.Answers.drain;
import static dev.saferetry.testing.Answers.json;
import static dev.saferetry.testing.Answers.status;
import static org.assertj.core.api.Assertions.assertThat;

import dev.saferetry.codec.BodyCodec;
import dev.saferetry.codec.Fields;
import dev.saferetry.codec.QueryParams;
import dev.saferetry.idempotency.IntentRecord;
import dev.saferetry.idempotency.IntentScope;
import dev.saferetry.idempotency.KeyPlacement;
import dev.saferetry.idempotency.KeyStore;
import dev.saferetry.internal.Fingerprint;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import mockwebserver3.RecordedRequest;
import org.junit.jupiter.api.Test;

/**
 * A key carried in the JSON body (Square's {@code idempotency_key}) is added to the very bytes the
 * intent's fingerprint was computed over: the body is never re-read into a tree and written again,
 * which rewrote {@code 100} as {@code 1E+2} and {@code 1.00} as {@code 1}.
 */
class KeyInBodyBytesTest extends ClientFixture {
  private static final Operation<Map<String, Object>, Map<String, Object>> PAY =
      Operation.post("/v2/payments", mapType(), mapType());

  @SuppressWarnings("unchecked")
  private static Class<Map<String, Object>> mapType() {
    return (Class<Map<String, Object>>) (Class<?>) Map.class;
  }

  private static Map<String, Object> numbers() {
    return Fields.of(
        "a", new BigDecimal("100"),
        "b", new BigDecimal("1E+2"),
        "c", new BigDecimal("1.0"),
        "d", new BigDecimal("1.00"),
        "e", -0.0d,
        "f", new BigInteger("12345678901234567890"),
        "g", 0.1d,
        "h", 100);
  }

  private static final String NUMBERS_JSON =
      "{\"a\":100,\"b\":1E+2,\"c\":1.0,\"d\":1.00,\"e\":-0.0,\"f\":12345678901234567890,"
          + "\"g\":0.1,\"h\":100";

  @Test
  void everyAttemptSendsTheFingerprintedBytesWithTheKeyAddedAndNoNumberRewritten()
      throws Exception {
    KeyStore store = KeyStore.inMemory();
    server.enqueue(status(503));
    server.enqueue(json(200, "{\"payment\":{\"id\":\"p1\"}}"));
    try (SafeRetryClient c =
        builder().keyPlacement(KeyPlacement.bodyField("idempotency_key")).keyStore(store).build()) {
      CallResult<Map<String, Object>> result =
          call(c, PAY, numbers(), RequestOptions.none().withIntentId("order-1"));
      List<RecordedRequest> wire = drain(server);
      assertThat(wire).hasSize(2);
      String key = result.key().value();
      String expected = NUMBERS_JSON + ",\"idempotency_key\":\"" + key + "\"}";
      for (RecordedRequest r : wire) {
        assertThat(r.getBody().utf8()).isEqualTo(expected);
      }
      byte[] fingerprinted = (NUMBERS_JSON + "}").getBytes(StandardCharsets.UTF_8);
      assertThat(fingerprinted).isEqualTo(BodyCodec.json().encode(numbers()).bytes());
      IntentRecord record =
          store.find(new IntentScope("default", "POST /v2/payments"), "order-1").orElseThrow();
      assertThat(record.fingerprint())
          .isEqualTo(
              Fingerprint.sha256Hex(
                  Fingerprint.input(
                      "POST",
                      "/v2/payments",
                      QueryParams.empty(),
                      Map.of(),
                      BodyCodec.json().contentType(),
                      fingerprinted)));
    }
  }

  @Test
  void theSquarePresetSendsNumbersExactlyAsTheCodecWroteThem() throws Exception {
    server.enqueue(json(200, "{\"payment\":{\"id\":\"p1\"}}"));
    try (SafeRetryClient c = builder().preset(ProviderPreset.square()).build()) {
      CallResult<Map<String, Object>> result =
          call(c, PAY, numbers(), RequestOptions.none().withIntentId("order-2"));
      assertThat(drain(server).get(0).getBody().utf8())
          .isEqualTo(NUMBERS_JSON + ",\"idempotency_key\":\"" + result.key().value() + "\"}");
    }
  }

  @Test
  void theKeyIsTheOnlyFieldOfAnEmptyBodyAndNeverReplacesTheCallersField() throws Exception {
    BodyCodec codec = BodyCodec.json();
    assertThat(new String(codec.encode(Map.of(), "k", "v\"1").bytes(), StandardCharsets.UTF_8))
        .isEqualTo("{\"k\":\"v\\\"1\"}");
    assertThat(new String(codec.encode(null, "k", "v").bytes(), StandardCharsets.UTF_8))
        .isEqualTo("{\"k\":\"v\"}");
    org.assertj.core.api.Assertions.assertThatThrownBy(
            () -> codec.encode(Fields.of("k", Fields.of("x", 1)), "k", "v"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("already has a field 'k'");
    // A nested field of that name is the caller's own: only the top level is the SDK's.
    assertThat(
            new String(
                codec.encode(Fields.of("x", Fields.of("k", 1)), "k", "v").bytes(),
                StandardCharsets.UTF_8))
        .isEqualTo("{\"x\":{\"k\":1},\"k\":\"v\"}");
  }
}
