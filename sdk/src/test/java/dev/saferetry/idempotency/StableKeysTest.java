package dev.saferetry.idempotency;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

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
    assertThat(StableKeys.uuidV5(URL, "commande-é").version()).isEqualTo(5);
  }

  @Test
  void emptyOrMissingInputsAreProgrammerErrors() {
    assertThatThrownBy(() -> StableKeys.derive(URL, ""))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> StableKeys.derive(null, "x")).isInstanceOf(NullPointerException.class);
    assertThatThrownBy(() -> StableKeys.derive(URL, null)).isInstanceOf(NullPointerException.class);
  }
}
