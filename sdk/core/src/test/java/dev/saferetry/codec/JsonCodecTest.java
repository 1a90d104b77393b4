package dev.saferetry.codec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import dev.saferetry.internal.codec.JsonCodec;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The JSON codec, asserted on the exact bytes. */
class JsonCodecTest {
  private static final BodyCodec JSON = BodyCodec.json();

  record Payment(long amount, String currency, Map<String, String> metadata) {}

  record CamelCase(long amountMoney, String locationId) {}

  static String json(BodyCodec codec, Object value) {
    return new String(codec.encode(value).bytes(), StandardCharsets.UTF_8);
  }

  @Test
  void recordsAreWrittenInComponentOrderWithoutWhitespace() {
    EncodedBody body = JSON.encode(new Payment(2000, "usd", null));
    assertThat(new String(body.bytes(), StandardCharsets.UTF_8))
        .isEqualTo("{\"amount\":2000,\"currency\":\"usd\",\"metadata\":null}");
    assertThat(body.contentType()).isEqualTo("application/json; charset=utf-8");
  }

  @Test
  void mapEntriesAreWrittenInKeyOrderWhateverTheMap() {
    Map<String, Object> linked = new LinkedHashMap<>();
    linked.put("c", 3);
    linked.put("a", 1);
    linked.put("b", List.of(Map.of("z", 1, "y", 2)));
    String expected = "{\"a\":1,\"b\":[{\"y\":2,\"z\":1}],\"c\":3}";
    assertThat(json(JSON, linked)).isEqualTo(expected);
    assertThat(json(JSON, new HashMap<>(linked))).isEqualTo(expected);
    assertThat(json(JSON, Map.copyOf(linked))).isEqualTo(expected);
  }

  @Test
  void decimalsKeepTheirScale() {
    assertThat(json(JSON, Map.of("v", new BigDecimal("1.50")))).isEqualTo("{\"v\":1.50}");
  }

  @Test
  void theCallersMapperConfigurationApplies() {
    ObjectMapper snake =
        new ObjectMapper().setPropertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE);
    assertThat(json(new OwnCodec(JsonCodec.of(snake), "JsonCodec"), new CamelCase(100, "L1")))
        .isEqualTo("{\"amount_money\":100,\"location_id\":\"L1\"}");
  }

  @Test
  void aTopLevelFieldIsAddedLast() {
    String withKey =
        new String(
            JSON.encode(new Payment(1, "usd", null), "idempotency_key", "k-1").bytes(),
            StandardCharsets.UTF_8);
    assertThat(withKey)
        .isEqualTo(
            "{\"amount\":1,\"currency\":\"usd\",\"metadata\":null,\"idempotency_key\":\"k-1\"}");
    assertThat(
            new String(JSON.encode(null, "idempotency_key", "k").bytes(), StandardCharsets.UTF_8))
        .isEqualTo("{\"idempotency_key\":\"k\"}");
  }

  @Test
  void aTopLevelFieldNeedsAnObjectAndNeverOverwrites() {
    assertThatThrownBy(() -> JSON.encode(List.of(1), "idempotency_key", "k"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("JSON object");
    assertThatThrownBy(() -> JSON.encode(Map.of("idempotency_key", "mine"), "idempotency_key", "k"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("already has a field");
  }

  @Test
  void canonicalBytesAreTheEncodingWithKeysSortedAtEveryLevel() {
    Map<String, Object> a = new LinkedHashMap<>();
    a.put("b", Map.of("y", 1, "x", 2));
    a.put("a", 1);
    assertThat(new String(JSON.canonical(a), StandardCharsets.UTF_8))
        .isEqualTo("{\"a\":1,\"b\":{\"x\":2,\"y\":1}}");
    assertThat(JSON.canonical(a)).isEqualTo(JSON.encode(a).bytes());
    assertThat(JSON.canonical(null)).isEmpty();
  }

  @Test
  void aTreeBodyIsWrittenWithItsKeysSorted() throws Exception {
    Object tree =
        new com.fasterxml.jackson.databind.ObjectMapper()
            .readTree("{\"b\":1,\"a\":{\"d\":1,\"c\":2}}");
    assertThat(new String(JSON.encode(tree).bytes(), StandardCharsets.UTF_8))
        .isEqualTo("{\"a\":{\"c\":2,\"d\":1},\"b\":1}");
  }

  @Test
  void unpairedSurrogatesAreRefusedWhereverTheyAre() {
    for (String bad : List.of("x\uD83D", "\uDE00y", "\uD83Dy", "\uD83D\uD83D\uDE00")) {
      assertThatThrownBy(() -> JSON.encode(Map.of("note", bad)))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("unpaired surrogate");
      assertThatThrownBy(() -> JSON.encode(Map.of(bad, "v")))
          .isInstanceOf(IllegalArgumentException.class);
      assertThatThrownBy(() -> JSON.canonical(Map.of("note", bad)))
          .isInstanceOf(IllegalArgumentException.class);
    }
  }

  @Test
  void pairedSurrogatesAndEscapeLookalikesPass() {
    assertThat(json(JSON, Map.of("e", "ok😀"))).isEqualTo("{\"e\":\"ok\\uD83D\\uDE00\"}");
    // The six characters backslash-u-D-8-0-0 are text, not an escape.
    assertThat(json(JSON, Map.of("e", "\\uD800"))).isEqualTo("{\"e\":\"\\\\uD800\"}");
    assertThat(json(JSON, Map.of("e", "é\"\n"))).isEqualTo("{\"e\":\"é\\\"\\n\"}");
  }

  @Test
  void selfReferencingValuesAreRefused() {
    Map<String, Object> cycle = new HashMap<>();
    cycle.put("self", cycle);
    assertThatThrownBy(() -> JSON.encode(cycle))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("java.util.HashMap");
  }
}
