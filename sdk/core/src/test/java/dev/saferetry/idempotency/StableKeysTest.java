package dev.saferetry.idempotency;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class StableKeysTest {
  private static final UUID DNS = UUID.fromString("6ba7b810-9dad-11d1-80b4-00c04fd430c8");
  private static final UUID URL = UUID.fromString("6ba7b811-9dad-11d1-80b4-00c04fd430c8");

  @Test
  void matchesTheKnownVersion5VectorForTheDnsNamespace() {
    assertThat(StableKeys.derive(DNS, "www.example.com").value())
        .isEqualTo("2ed6657d-e927-568b-95e1-2665a8aea6a2");
  }

  @Test
  void derivedKeyIsAVersion5IetfVariantUuid() {
    UUID uuid = UUID.fromString(StableKeys.derive(URL, "order-123/charge").value());
    assertThat(uuid.version()).isEqualTo(5);
    assertThat(uuid.variant()).isEqualTo(2);
  }

  @Test
  void sameInputsAlwaysGiveTheSameKey() {
    assertThat(StableKeys.derive(URL, "order-123/charge"))
        .isEqualTo(StableKeys.derive(URL, "order-123/charge"));
  }

  @Test
  void differentBusinessIdsOrNamespacesGiveDifferentKeys() {
    IdempotencyKey key = StableKeys.derive(URL, "order-123/charge");
    assertThat(StableKeys.derive(URL, "order-124/charge")).isNotEqualTo(key);
    assertThat(StableKeys.derive(DNS, "order-123/charge")).isNotEqualTo(key);
  }

  @Test
  void businessIdIsEncodedAsUtf8() {
    assertThat(StableKeys.derive(URL, "commande-é"))
        .isNotEqualTo(StableKeys.derive(URL, "commande-e"));
    assertThat(UUID.fromString(StableKeys.derive(URL, "commande-é").value()).version())
        .isEqualTo(5);
  }

  @Test
  void emptyOrMissingInputsAreProgrammerErrors() {
    assertThatThrownBy(() -> StableKeys.derive(URL, ""))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> StableKeys.derive(null, "x")).isInstanceOf(NullPointerException.class);
    assertThatThrownBy(() -> StableKeys.derive(URL, null)).isInstanceOf(NullPointerException.class);
  }

  /** Before, all three were hashed as "order-?" and derived one key: a second order's replay. */
  @Test
  void textWithAnUnpairedSurrogateIsRefusedSoItCannotShareAKeyWithOtherText() {
    for (String bad : List.of("order-\uD800", "order-\uDBFF", "\uDC00order", "a\uDC00\uD800b")) {
      assertThatThrownBy(() -> StableKeys.derive(URL, bad))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("businessId")
          .hasMessageContaining("unpaired surrogate at index")
          .hasMessageNotContaining(bad);
      assertThatThrownBy(() -> StableKeys.deriveFromParts(URL, "order", bad))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("parts[1]")
          .hasMessageContaining("unpaired surrogate");
    }
    assertThat(StableKeys.derive(URL, "order-?").value()).isNotBlank();
  }

  @Test
  void pairedSurrogatesControlCharactersAndHugeIdsAreHashedExactly() {
    IdempotencyKey emoji = StableKeys.derive(URL, "order-\uD83D\uDE00");
    assertThat(emoji).isNotEqualTo(StableKeys.derive(URL, "order-?"));
    assertThat(emoji).isNotEqualTo(StableKeys.derive(URL, "order-\uD83D\uDE01"));
    assertThat(StableKeys.derive(URL, "a\u0000b")).isNotEqualTo(StableKeys.derive(URL, "a\u0000c"));
    assertThat(StableKeys.derive(URL, "a\r\nb")).isNotEqualTo(StableKeys.derive(URL, "a\nb"));
    String huge = "x".repeat(1_000_000);
    assertThat(StableKeys.derive(URL, huge)).isNotEqualTo(StableKeys.derive(URL, huge + "x"));
  }

  @Test
  void partsAreLengthPrefixedSoNoSeparatorMovesTheirBoundary() {
    List<List<String>> inputs =
        List.of(
            List.of("a|b", "c"),
            List.of("a", "b|c"),
            List.of("a|b|c"),
            List.of("a", "b", "c"),
            List.of("ab", "c"),
            List.of("a", "bc"),
            List.of("abc"),
            List.of("a/b", "c"),
            List.of("a", "b/c"),
            List.of("\u0000\u0000\u0000\u0001", "a"),
            List.of("a", "\u0000\u0000\u0000\u0001"));
    Map<IdempotencyKey, List<String>> seen = new HashMap<>();
    for (List<String> parts : inputs) {
      IdempotencyKey key = StableKeys.deriveFromParts(URL, parts.toArray(String[]::new));
      assertThat(seen.put(key, parts)).as("key of %s", parts).isNull();
      assertThat(StableKeys.deriveFromParts(URL, parts.toArray(String[]::new))).isEqualTo(key);
    }
  }

  @Test
  void partsNeverGiveTheKeyOfASingleBusinessId() {
    assertThat(StableKeys.deriveFromParts(URL, "order-1"))
        .isNotEqualTo(StableKeys.derive(URL, "order-1"));
    assertThat(UUID.fromString(StableKeys.deriveFromParts(URL, "order-1").value()).version())
        .isEqualTo(5);
    assertThat(StableKeys.deriveFromParts(DNS, "order-1"))
        .isNotEqualTo(StableKeys.deriveFromParts(URL, "order-1"));
  }

  @Test
  void randomPartListsWithSeparatorsNeverCollide() {
    Random random = new Random(21);
    String alphabet = "ab|/\u0000\uD83D\uDE00";
    Map<IdempotencyKey, List<String>> seen = new HashMap<>();
    for (int n = 0; n < 5_000; n++) {
      List<String> parts = new ArrayList<>();
      for (int p = 1 + random.nextInt(3); p > 0; p--) {
        StringBuilder part = new StringBuilder();
        for (int c = 1 + random.nextInt(4); c > 0; c--) {
          int at = random.nextInt(alphabet.length() - 1);
          part.append(
              Character.isHighSurrogate(alphabet.charAt(at))
                  ? "\uD83D\uDE00"
                  : alphabet.charAt(at));
        }
        parts.add(part.toString());
      }
      List<String> earlier =
          seen.putIfAbsent(StableKeys.deriveFromParts(URL, parts.toArray(String[]::new)), parts);
      assertThat(earlier == null || earlier.equals(parts)).as("%s vs %s", earlier, parts).isTrue();
    }
  }

  @Test
  void partsMustBePresentAndNotEmpty() {
    assertThatThrownBy(() -> StableKeys.deriveFromParts(URL))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("at least one");
    assertThatThrownBy(() -> StableKeys.deriveFromParts(URL, "order-1", ""))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("parts[1] must not be empty");
    assertThatThrownBy(() -> StableKeys.deriveFromParts(URL, "order-1", null))
        .isInstanceOf(NullPointerException.class)
        .hasMessageContaining("parts[1]");
    assertThatThrownBy(() -> StableKeys.deriveFromParts(null, "x"))
        .isInstanceOf(NullPointerException.class);
    assertThatThrownBy(() -> StableKeys.deriveFromParts(URL, (String[]) null))
        .isInstanceOf(NullPointerException.class);
  }
}
