package dev.saferetry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.saferetry.codec.BodyCodec;
import dev.saferetry.codec.EncodedBody;
import dev.saferetry.codec.Fields;
import dev.saferetry.codec.FormStyle;
import dev.saferetry.codec.QueryParams;
import dev.saferetry.idempotency.IdempotencyKey;
import dev.saferetry.idempotency.KeyPlacement;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The presets' values and the exact bodies and headers they produce for documented requests. */
class ProviderPresetTest {
  private static final IdempotencyKey KEY =
      IdempotencyKey.of("9f0d5a4e-0d2b-4a86-b7b0-9ad4f3e1c2aa");

  record Money(long amount, String currency) {}

  record SquarePayment(
      @com.fasterxml.jackson.annotation.JsonProperty("source_id") String sourceId,
      @com.fasterxml.jackson.annotation.JsonProperty("amount_money") Money amountMoney) {}

  /**
   * The body of an attempt as the preset places the key; the same call for a first try or a retry.
   */
  static String attemptBody(ProviderPreset preset, Object body) {
    PresetApplied p = PresetApplied.of(preset);
    KeyPlacement placement = p.keyPlacement();
    EncodedBody encoded =
        placement.inBody()
            ? p.codec().encode(body, placement.name(), KEY.value())
            : p.codec().encode(body);
    return new String(encoded.bytes(), StandardCharsets.UTF_8);
  }

  @Test
  void everyPresetNamesItsSourcesAndPlacesItsKey() {
    assertThat(ProviderPreset.all())
        .extracting(ProviderPreset::name)
        .containsExactly("stripe", "paypal", "adyen", "square", "checkout.com", "gocardless");
    for (ProviderPreset p : ProviderPreset.all()) {
      assertThat(p.sources())
          .as(p.name())
          .isNotEmpty()
          .allMatch(u -> u.getScheme().equals("https"));
      assertThat(PresetApplied.of(p).keyPlacement()).as(p.name()).isNotNull();
      assertThat(p.sources()).isUnmodifiable();
      assertThat(PresetApplied.of(p).requestIdHeaders()).isUnmodifiable();
    }
    assertThat(PresetApplied.of(ProviderPreset.stripe()).keyPlacement().headerValue(KEY))
        .isEqualTo(KEY.value());
    assertThat(PresetApplied.of(ProviderPreset.stripe()).keyPlacement().name())
        .isEqualTo("Idempotency-Key");
    assertThat(PresetApplied.of(ProviderPreset.payPal()).keyPlacement().name())
        .isEqualTo("PayPal-Request-Id");
    assertThat(PresetApplied.of(ProviderPreset.adyen()).keyPlacement().name())
        .isEqualTo("Idempotency-Key");
    assertThat(PresetApplied.of(ProviderPreset.checkoutCom()).keyPlacement().name())
        .isEqualTo("Cko-Idempotency-Key");
    assertThat(PresetApplied.of(ProviderPreset.goCardless()).keyPlacement().name())
        .isEqualTo("Idempotency-Key");
    assertThat(PresetApplied.of(ProviderPreset.square()).keyPlacement().inBody()).isTrue();
    assertThat(PresetApplied.of(ProviderPreset.square()).keyPlacement().name())
        .isEqualTo("idempotency_key");
  }

  @Test
  void stripeSendsTheFormBodyItsReferenceDocuments() {
    ProviderPreset stripePreset = ProviderPreset.stripe();
    PresetApplied stripe = PresetApplied.of(stripePreset);
    Map<String, Object> charge =
        Fields.of(
            "amount",
            2000,
            "currency",
            "usd",
            "metadata",
            Fields.of("order_id", "6735"),
            "expand",
            List.of("customer"));
    assertThat(attemptBody(stripePreset, charge))
        .isEqualTo("amount=2000&currency=usd&expand[]=customer&metadata[order_id]=6735");
    assertThat(stripe.codec().contentType())
        .isEqualTo("application/x-www-form-urlencoded;charset=UTF-8");
    assertThat(stripe.codec().encode(charge)).isEqualTo(stripe.codec().encode(charge));
    assertThat(QueryParams.empty().and("limit", 3).and("starting_after", "ch_1").encode())
        .isEqualTo("limit=3&starting_after=ch_1");
  }

  @Test
  void stripesOtherRules() {
    ProviderPreset stripePreset = ProviderPreset.stripe();
    PresetApplied stripe = PresetApplied.of(stripePreset);
    assertThat(stripe.apiKeyStyle().headerValue("sk_test_x")).isEqualTo("Bearer sk_test_x");
    assertThat(stripe.identityHeaders())
        .containsExactlyInAnyOrder("Stripe-Version", "Stripe-Account", "Stripe-Context");
    assertThat(stripe.requestIdHeaders()).startsWith("Request-Id");
    assertThat(stripe.shouldRetryHeaders()).contains("Stripe-Should-Retry");
    assertThat(stripe.intentRetention()).isEqualTo(Duration.ofHours(24));
    assertThat(stripe.keyMaxLength()).hasValue(255);
    assertThat(stripe.existingResource()).isEmpty();
  }

  @Test
  void stripesReuseAndInProgressAnswersAreRecognised() {
    ProviderPreset stripePreset = ProviderPreset.stripe();
    PresetApplied stripe = PresetApplied.of(stripePreset);
    String reused =
        "{\"error\":{\"message\":\"Keys for idempotent requests can only be used with the same"
            + " parameters they were first used with.\",\"type\":\"idempotency_error\"}}";
    String declined = "{\"error\":{\"type\":\"card_error\",\"code\":\"card_declined\"}}";
    assertThat(stripe.keyReused()).anyMatch(m -> m.matches(400, reused));
    assertThat(stripe.keyReused()).noneMatch(m -> m.matches(402, declined));
    assertThat(stripe.keyReused()).noneMatch(m -> m.matches(409, reused));
    assertThat(stripe.inProgress()).anyMatch(m -> m.matches(409, reused));
    assertThat(stripe.inProgress()).noneMatch(m -> m.matches(400, reused));
    ReplayMarker marker = stripe.replayMarker().orElseThrow();
    assertThat(marker.isReplay("true")).isTrue();
    assertThat(marker.isReplay(" TRUE ")).isTrue();
    assertThat(marker.isReplay("false")).isFalse();
    assertThat(marker.isReplay(null)).isFalse();
  }

  @Test
  void squarePutsTheKeyLastInTheJsonBodyOnEveryAttempt() {
    ProviderPreset squarePreset = ProviderPreset.square();
    PresetApplied square = PresetApplied.of(squarePreset);
    SquarePayment payment = new SquarePayment("cnon:card-nonce-ok", new Money(100, "USD"));
    String first = attemptBody(squarePreset, payment);
    assertThat(first)
        .isEqualTo(
            "{\"amount_money\":{\"amount\":100,\"currency\":\"USD\"},\"source_id\":"
                + "\"cnon:card-nonce-ok\",\"idempotency_key\":\"9f0d5a4e-0d2b-4a86-b7b0-9ad4f3e1c2aa\"}");
    assertThat(attemptBody(squarePreset, payment)).isEqualTo(first);
    assertThat(square.identityHeaders()).contains("Square-Version");
    String reused =
        "{\"errors\":[{\"category\":\"INVALID_REQUEST_ERROR\",\"code\":\"IDEMPOTENCY_KEY_REUSED\"}]}";
    assertThat(square.keyReused()).anyMatch(m -> m.matches(400, reused));
    String temporary = "{\"errors\":[{\"category\":\"API_ERROR\",\"code\":\"TEMPORARY_ERROR\"}]}";
    assertThat(square.retryableErrors()).anyMatch(m -> m.matches(500, temporary));
    assertThat(square.keyReused()).noneMatch(m -> m.matches(500, temporary));
  }

  @Test
  void payPalsReuseAnswersAreRecognisedInBothApiGenerations() {
    ProviderPreset payPalPreset = ProviderPreset.payPal();
    PresetApplied payPal = PresetApplied.of(payPalPreset);
    String v2 =
        "{\"name\":\"UNPROCESSABLE_ENTITY\",\"details\":[{\"issue\":\"OTHER\"},"
            + "{\"issue\":\"PAYPAL_REQUEST_ID_PREVIOUSLY_USED\"}],\"debug_id\":\"a1b2c3\"}";
    String v1 = "{\"name\":\"DUPLICATE_REQUEST_ID\",\"debug_id\":\"x\"}";
    assertThat(payPal.keyReused()).anyMatch(m -> m.matches(422, v2));
    assertThat(payPal.keyReused()).noneMatch(m -> m.matches(400, v2));
    assertThat(payPal.keyReused()).anyMatch(m -> m.matches(400, v1));
    assertThat(payPal.errorRequestIdField()).contains("/debug_id");
    assertThat(payPal.requestIdHeaders()).startsWith("PayPal-Debug-Id");
    assertThat(payPal.intentRetention()).isEqualTo(Duration.ofHours(24)); // the client's default
    assertThat(attemptBody(payPalPreset, new Money(100, "USD")))
        .isEqualTo("{\"amount\":100,\"currency\":\"USD\"}");
  }

  @Test
  void goCardlessTurnsTheCreationConflictIntoTheExistingResource() {
    ExistingResource conflict =
        PresetApplied.of(ProviderPreset.goCardless()).existingResource().orElseThrow();
    String blog =
        "{\"error\":{\"code\":409,\"type\":\"invalid_state\",\"message\":\"A resource has already"
            + " been created with this idempotency key\",\"errors\":[{\"reason\":"
            + "\"idempotent_creation_conflict\",\"message\":\"A resource has already been created"
            + " with this idempotency key\",\"links\":{\"conflicting_resource_id\":\"PM00001\"}}]}}";
    assertThat(conflict.resourceId(409, blog)).contains("PM00001");
    assertThat(conflict.resourceId(400, blog)).isEmpty();
    String second =
        "{\"error\":{\"errors\":[{\"reason\":\"other\",\"links\":{\"conflicting_resource_id\":\"X\"}},"
            + "{\"reason\":\"idempotent_creation_conflict\",\"links\":{\"conflicting_resource_id\":"
            + "\"PM9\"}}]}}";
    assertThat(conflict.resourceId(409, second)).contains("PM9");
    assertThat(conflict.resourceId(409, "{\"error\":{\"type\":\"invalid_state\"}}")).isEmpty();
    assertThat(conflict.resourceId(409, "<html>conflict</html>")).isEmpty();
    assertThat(PresetApplied.of(ProviderPreset.goCardless()).headers())
        .containsExactly(Map.entry("GoCardless-Version", "2015-07-06"));
    Map<String, Object> envelope =
        Fields.of(
            "payments",
            Fields.of("amount", 100, "currency", "GBP", "links", Fields.of("mandate", "MD001")));
    assertThat(attemptBody(ProviderPreset.goCardless(), envelope))
        .isEqualTo(
            "{\"payments\":{\"amount\":100,\"currency\":\"GBP\",\"links\":{\"mandate\":\"MD001\"}}}");
  }

  @Test
  void adyenAndCheckoutComKeepTheirOwnHeaders() {
    assertThat(PresetApplied.of(ProviderPreset.adyen()).apiKeyStyle().headerName())
        .isEqualTo("X-API-Key");
    assertThat(PresetApplied.of(ProviderPreset.adyen()).apiKeyStyle().headerValue("AQE1"))
        .isEqualTo("AQE1");
    assertThat(PresetApplied.of(ProviderPreset.adyen()).keyMaxLength()).hasValue(64);
    assertThat(PresetApplied.of(ProviderPreset.adyen()).intentRetention())
        .isEqualTo(Duration.ofDays(31));
    assertThat(PresetApplied.of(ProviderPreset.checkoutCom()).requestIdHeaders())
        .startsWith("Cko-Request-Id");
    assertThat(PresetApplied.of(ProviderPreset.checkoutCom()).inProgress())
        .anyMatch(m -> m.matches(409, ""));
    assertThat(PresetApplied.of(ProviderPreset.checkoutCom()).keyReused())
        .isEmpty(); // not documented
  }

  @Test
  void apiKeysNeverAppearInTextAndCannotSplitAHeader() {
    assertThat(ApiKeyStyle.bearer().toString()).doesNotContain("sk_");
    assertThatThrownBy(() -> ApiKeyStyle.bearer().headerValue("sk_live_secret\r\nX-Evil: 1"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageNotContaining("sk_live_secret");
    assertThatThrownBy(() -> ApiKeyStyle.header("X API Key"))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void aPresetOfYourOwnSetsTheBuildersSettingsAndTheClientsOwnWin() {
    ProviderPreset own =
        SafeRetryClient.builder()
            .keyPlacement(KeyPlacement.bodyField("request_key"))
            .codec(BodyCodec.form(FormStyle.defaults().withIndexedLists()))
            .keyMaxLength(64)
            .toPreset("acme", "https://acme.example/docs");
    PresetApplied applied = PresetApplied.of(own);
    assertThat(applied.keyPlacement().name()).isEqualTo("request_key");
    assertThat(applied.keyMaxLength()).hasValue(64);
    assertThat(applied.intentRetention()).isEqualTo(Duration.ofHours(24));
    assertThat(own.sources()).hasSize(1);
    BodyCodec headerOnly =
        new BodyCodec() {
          @Override
          public String contentType() {
            return "application/xml";
          }

          @Override
          public EncodedBody encode(Object value) {
            return EncodedBody.of(new byte[0], contentType());
          }
        };
    assertThatThrownBy(
            () ->
                PresetApplied.of(
                    SafeRetryClient.builder()
                        .keyPlacement(KeyPlacement.bodyField("k"))
                        .codec(headerOnly)
                        .toPreset("x")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("which codec cannot");
    assertThatThrownBy(
            () ->
                PresetApplied.of(
                    SafeRetryClient.builder().requestIdHeaders("Request Id").toPreset("x")))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(
            () ->
                PresetApplied.of(SafeRetryClient.builder().errorRequestIdField("id").toPreset("x")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("errorRequestIdField");
    assertThatThrownBy(() -> SafeRetryClient.builder().toPreset(" "))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(
            () -> PresetApplied.of(SafeRetryClient.builder().keyMaxLength(-1).toPreset("x")))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void errorMatchesAreValidated() {
    assertThatThrownBy(() -> new ErrorMatch(0, "", "", null))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> ErrorMatch.status(700)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> ErrorMatch.of(400, "error", "/type", "x"))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> ErrorMatch.of(400, "/errors", "/*/code", "x"))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(
            () -> SafeRetryClient.builder().existingResource(ErrorMatch.status(409), "/id"))
        .isInstanceOf(IllegalArgumentException.class);
    assertThat(ErrorMatch.of(400, "/error", "/type", "x").matches(400, "not json")).isFalse();
    assertThat(ErrorMatch.of(400, "/error", "/type", "x").matches(400, null)).isFalse();
  }
}
