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

class IdempotencyKeyStableTest {
  private static final UUID DNS = UUID.fromString("6ba7b810-9dad-11d1-80b4-00c04fd430c8");
  private static final UUID URL = UUID.fromString("6ba7b811-9dad-11d1-80b4-00c04fd430c8");

  @Test
  void matchesTheKnownVersion5VectorForTheDnsNamespace() {
    assertThat(IdempotencyKey.stable(DNS, "www.example.com").value())
        .isEqualTo("2ed6657d-e927-568b-95e1-2665a8aea6a2");
  }

  @Test
  void derivedKeyIsAVersion5IetfVariantUuid() {
    UUID uuid = UUID.fromString(IdempotencyKey.stable(URL, "order-123/charge").value());
    assertThat(uuid.version()).isEqualTo(5);
    assertThat(uuid.variant()).isEqualTo(2);
  }

  @Test
  void sameInputsAlwaysGiveTheSameKey() {
    assertThat(IdempotencyKey.stable(URL, "order-123/charge"))
        .isEqualTo(IdempotencyKey.stable(URL, "order-123/charge"));
  }

  @Test
  void differentBusinessIdsOrNamespacesGiveDifferentKeys() {
    IdempotencyKey key = IdempotencyKey.stable(URL, "order-123/charge");
    assertThat(IdempotencyKey.stable(URL, "order-124/charge")).isNotEqualTo(key);
    assertThat(IdempotencyKey.stable(DNS, "order-123/charge")).isNotEqualTo(key);
  }

  @Test
  void businessIdIsEncodedAsUtf8() {
    assertThat(IdempotencyKey.stable(URL, "commande-é"))
        .isNotEqualTo(IdempotencyKey.stable(URL, "commande-e"));
    assertThat(UUID.fromString(IdempotencyKey.stable(URL, "commande-é").value()).version())
        .isEqualTo(5);
  }

  @Test
  void emptyOrMissingInputsAreProgrammerErrors() {
    assertThatThrownBy(() -> IdempotencyKey.stable(URL, ""))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> IdempotencyKey.stable(null, "x"))
        .isInstanceOf(NullPointerException.class);
    assertThatThrownBy(() -> IdempotencyKey.stable(URL, null))
        .isInstanceOf(NullPointerException.class);
  }

  /** Before, all three were hashed as "order-?" and derived one key: a second order's replay. */
  @Test
  void textWithAnUnpairedSurrogateIsRefusedSoItCannotShareAKeyWithOtherText() {
    for (String bad : List.of("order-\uD800", "order-\uDBFF", "\uDC00order", "a\uDC00\uD800b")) {
      assertThatThrownBy(() -> IdempotencyKey.stable(URL, bad))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("businessId")
          .hasMessageContaining("unpaired surrogate at index")
          .hasMessageNotContaining(bad);
      assertThatThrownBy(() -> IdempotencyKey.stableFromParts(URL, "order", bad))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("parts[1]")
          .hasMessageContaining("unpaired surrogate");
    }
    assertThat(IdempotencyKey.stable(URL, "order-?").value()).isNotBlank();
  }

  @Test
  void pairedSurrogatesControlCharactersAndHugeIdsAreHashedExactly() {
    IdempotencyKey emoji = IdempotencyKey.stable(URL, "order-\uD83D\uDE00");
    assertThat(emoji).isNotEqualTo(IdempotencyKey.stable(URL, "order-?"));
    assertThat(emoji).isNotEqualTo(IdempotencyKey.stable(URL, "order-\uD83D\uDE01"));
    assertThat(IdempotencyKey.stable(URL, "a\u0000b"))
        .isNotEqualTo(IdempotencyKey.stable(URL, "a\u0000c"));
    assertThat(IdempotencyKey.stable(URL, "a\r\nb"))
        .isNotEqualTo(IdempotencyKey.stable(URL, "a\nb"));
    String huge = "x".repeat(1_000_000);
    assertThat(IdempotencyKey.stable(URL, huge))
        .isNotEqualTo(IdempotencyKey.stable(URL, huge + "x"));
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
      IdempotencyKey key = IdempotencyKey.stableFromParts(URL, parts.toArray(String[]::new));
      assertThat(seen.put(key, parts)).as("key of %s", parts).isNull();
      assertThat(IdempotencyKey.stableFromParts(URL, parts.toArray(String[]::new))).isEqualTo(key);
    }
  }

  @Test
  void partsNeverGiveTheKeyOfASingleBusinessId() {
    assertThat(IdempotencyKey.stableFromParts(URL, "order-1"))
        .isNotEqualTo(IdempotencyKey.stable(URL, "order-1"));
    assertThat(UUID.fromString(IdempotencyKey.stableFromParts(URL, "order-1").value()).version())
        .isEqualTo(5);
    assertThat(IdempotencyKey.stableFromParts(DNS, "order-1"))
        .isNotEqualTo(IdempotencyKey.stableFromParts(URL, "order-1"));
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
          seen.putIfAbsent(
              IdempotencyKey.stableFromParts(URL, parts.toArray(String[]::new)), parts);
      assertThat(earlier == null || earlier.equals(parts)).as("%s vs %s", earlier, parts).isTrue();
    }
  }

  @Test
  void partsMustBePresentAndNotEmpty() {
    assertThatThrownBy(() -> IdempotencyKey.stableFromParts(URL))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("at least one");
    assertThatThrownBy(() -> IdempotencyKey.stableFromParts(URL, "order-1", ""))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("parts[1] must not be empty");
    assertThatThrownBy(() -> IdempotencyKey.stableFromParts(URL, "order-1", null))
        .isInstanceOf(NullPointerException.class)
        .hasMessageContaining("parts[1]");
    assertThatThrownBy(() -> IdempotencyKey.stableFromParts(null, "x"))
        .isInstanceOf(NullPointerException.class);
    assertThatThrownBy(() -> IdempotencyKey.stableFromParts(URL, (String[]) null))
        .isInstanceOf(NullPointerException.class);
  }
}
