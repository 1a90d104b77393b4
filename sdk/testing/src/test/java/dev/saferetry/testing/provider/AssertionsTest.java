package dev.saferetry.testing.provider;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The provider's checks catch what a retry with a new key does — two charges for one order — and
 * pass what one key per intent does.
 */
class AssertionsTest {
  private static final String ORDER_1 =
      "{\"amount\":100,\"currency\":\"eur\",\"description\":\"order 1\"}";
  private static final String ORDER_2 =
      "{\"amount\":100,\"currency\":\"eur\",\"description\":\"order 2\"}";

  private final FakeProvider provider = FakeProvider.start();
  private final RawHttp raw = new RawHttp(provider.baseUrl(), Map.of("Authorization", "Bearer t"));

  @AfterEach
  void stop() {
    provider.close();
  }

  /** A naive client: on a 5xx it sends the same request again under a new key. */
  private void naiveChargeRetryingWithANewKey(String body) {
    for (int attempt = 1; attempt <= 3; attempt++) {
      if (raw.json("POST", "/v1/charges", body, "Idempotency-Key", "key-" + attempt).status()
          < 500) {
        return;
      }
    }
  }

  @Test
  void aRetryUnderANewKeyIsADuplicateEffectAndAnIntentWithTwoKeys() {
    provider.arm(Fault.failAfterCommit(500));

    naiveChargeRetryingWithANewKey(ORDER_1);

    assertThat(provider.effects()).hasSize(2);
    assertThatThrownBy(provider::assertNoDuplicateEffects)
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining("2 effects of one request POST /v1/charges")
        .hasMessageContaining("[key-1, key-2]");
    assertThatThrownBy(provider::assertOneKeyPerIntent)
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining("carried 2 keys: [key-1, key-2]");
    assertThatCode(provider::assertOneEffectPerKey).doesNotThrowAnyException();
  }

  @Test
  void aRetryUnderTheSameKeyPassesEveryCheck() {
    provider.arm(Fault.failAfterCommit(500));

    raw.json("POST", "/v1/charges", ORDER_1, "Idempotency-Key", "k1");
    raw.json("POST", "/v1/charges", ORDER_1, "Idempotency-Key", "k1");
    raw.json("POST", "/v1/charges", ORDER_2, "Idempotency-Key", "k2");

    assertThat(provider.effects()).hasSize(2);
    assertThatCode(
            () -> {
              provider.assertNoDuplicateEffects();
              provider.assertOneKeyPerIntent();
              provider.assertOneEffectPerKey();
            })
        .doesNotThrowAnyException();
  }

  @Test
  void anIntentNamedByAFunctionGroupsAttemptsWhoseBodiesDiffer() {
    raw.json("POST", "/v1/charges", ORDER_1, "Idempotency-Key", "k1");
    raw.json(
        "POST",
        "/v1/charges",
        "{\"amount\":101,\"currency\":\"eur\",\"description\":\"order 1\"}",
        "Idempotency-Key",
        "k2");

    assertThatCode(provider::assertOneKeyPerIntent).doesNotThrowAnyException();
    assertThatThrownBy(() -> provider.assertOneKeyPerIntent(r -> r.parameters().get("description")))
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining("the attempts of order 1 carried 2 keys");
  }

  @Test
  void readsAreNeverAttemptsOfAnIntentAndAKeylessAttemptCountsAsAnotherKey() {
    raw.get("/v1/charges?description=x");
    raw.get("/v1/charges?description=x", "Idempotency-Key", "k9");
    assertThatCode(provider::assertOneKeyPerIntent).doesNotThrowAnyException();

    raw.json("POST", "/v1/charges", ORDER_2, "Idempotency-Key", "k2");
    raw.json("POST", "/v1/charges", ORDER_2);

    assertThatThrownBy(provider::assertOneKeyPerIntent)
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining("[k2, null]");
  }

  @Test
  void effectsAreCountedPerKeyAndPerOperation() {
    String charge =
        raw.json("POST", "/v1/charges", ORDER_1, "Idempotency-Key", "c").body().get("id").asText();
    raw.json(
        "POST",
        "/v1/refunds",
        "{\"charge\":\"" + charge + "\",\"amount\":10}",
        "Idempotency-Key",
        "r1");
    raw.json(
        "POST",
        "/v1/refunds",
        "{\"charge\":\"" + charge + "\",\"amount\":10}",
        "Idempotency-Key",
        "r1");
    raw.json("POST", "/v1/refunds", "{\"charge\":\"" + charge + "\",\"amount\":20}");

    assertThat(provider.effectsPerKey()).containsExactly(Map.entry("c", 1), Map.entry("r1", 1));
    assertThat(provider.effectsPerOperation())
        .containsExactly(Map.entry("POST /v1/charges", 1), Map.entry("POST /v1/refunds", 2));
  }
}
