package dev.saferetry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.saferetry.examples.payments.ChargeCreateParams;
import dev.saferetry.examples.payments.Charges;
import dev.saferetry.idempotency.KeyPlacement;
import dev.saferetry.idempotency.KeyStore;
import dev.saferetry.testing.Answers;
import mockwebserver3.QueueDispatcher;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Whatever can be checked is checked before an intent is recorded: a bad header or API key must
 * never leave a pending intent that was never sent. Messages name the setting, never a secret.
 */
class ValidatedBeforeRecordTest extends ClientFixture {
  private static final ChargeCreateParams PARAMS = ChargeCreateParams.of(1000, "eur");
  private static final String SECRET = "sk_live_abcdef123456";

  private final KeyStore store = KeyStore.inMemory();

  @BeforeEach
  void answerUnexpectedRequestsAtOnce() {
    ((QueueDispatcher) server.getDispatcher()).setFailFast(true);
  }

  /** The whole call, as a caller writes it, as an intent. */
  private static CallResult<?> chargeWithHeader(SafeRetryClient c, String name, String value) {
    return c.execute(
        Charges.CREATE,
        PARAMS,
        RequestOptions.none().withIntentId("order-1/charge").withHeader(name, value));
  }

  private void assertNothingRecordedOrSent() {
    assertThat(store.pending()).isEmpty();
    assertThat(server.getRequestCount()).isZero();
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        SECRET + "\r\nX-Injected: 1",
        SECRET + "\n",
        SECRET + "\u0000",
        SECRET + "é",
        SECRET + "\u2028"
      })
  void aHeaderValueThatCannotBeSentIsRefusedBeforeTheIntentIsRecorded(String value) {
    try (SafeRetryClient c = builder().keyStore(store).build()) {
      assertThatThrownBy(() -> chargeWithHeader(c, "X-Merchant-Token", value))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("X-Merchant-Token")
          .hasMessageNotContaining(SECRET);
    }
    assertNothingRecordedOrSent();
  }

  @ParameterizedTest
  @ValueSource(strings = {"", "X Note", "X-Note:", "X-Nöte", "X-Note\r\n"})
  void aHeaderNameThatCannotBeSentIsRefused(String name) {
    assertThatThrownBy(() -> RequestOptions.none().withHeader(name, "v"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("header name");
  }

  @Test
  void theKeysOwnHeaderCannotBeOverriddenByACallHeader() {
    try (SafeRetryClient c =
        builder().keyStore(store).keyPlacement(KeyPlacement.header("PayPal-Request-Id")).build()) {
      assertThatThrownBy(() -> chargeWithHeader(c, "paypal-request-id", "mine"))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("idempotency key");
    }
    assertNothingRecordedOrSent();
  }

  @ParameterizedTest
  @ValueSource(
      strings = {SECRET + "\r\n", SECRET + " x", SECRET + "ü", " " + SECRET, SECRET + "\t", ""})
  void aMalformedApiKeyFailsBuildWithoutEchoingIt(String key) {
    assertThatThrownBy(() -> builder().keyStore(store).apiKey(key).build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("apiKey")
        .hasMessageNotContaining(SECRET);
    assertNothingRecordedOrSent();
  }

  @Test
  void aKeyPlacementHeaderNameThatCannotBeSentFailsBuild() {
    assertThatThrownBy(() -> builder().keyPlacement(KeyPlacement.header("Idempotency Key")).build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("keyPlacement");
  }

  @Test
  void credentialsInTheBaseUrlFailBuildWithoutBeingEchoed() {
    String url = "http://merchant:" + SECRET + "@" + server.getHostName() + ":" + server.getPort();
    assertThatThrownBy(() -> SafeRetryClient.builder().baseUrl(url).build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("baseUrl")
        .hasMessageNotContaining(SECRET);
    assertThatThrownBy(() -> SafeRetryClient.builder().baseUrl("ftp://u:" + SECRET + "@host/"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageNotContaining(SECRET)
        .hasNoCause();
  }

  @Test
  void aValidCallAfterwardsIsRecordedAndSent() {
    server.enqueue(Answers.charge());
    try (SafeRetryClient c = builder().keyStore(store).apiKey(SECRET).build()) {
      chargeWithHeader(c, "X-Merchant-Token", "tab\tand printable");
    }
    assertThat(server.getRequestCount()).isEqualTo(1);
    assertThat(store.pending()).isEmpty();
  }
}
