package dev.saferetry.webhook;

import static dev.saferetry.webhook.Signing.headers;
import static dev.saferetry.webhook.Signing.stripeV1;
import static dev.saferetry.webhook.Signing.utf8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.Test;

class StripeWebhookVerifierTest {
  static final String SECRET = "whsec_test_secret_for_signing_1234";
  static final String OLD_SECRET = "whsec_previous_secret_still_valid_99";
  static final long NOW = 1_767_225_600L; // 2026-01-01T00:00:00Z
  static final byte[] EVENT =
      utf8(
          "{\"id\":\"evt_1QxYz\",\"object\":\"event\",\"type\":\"charge.succeeded\","
              + "\"data\":{\"object\":{\"id\":\"ch_1\",\"metadata\":{\"order_id\":\"o-1\"}}}}");

  final StripeWebhookVerifier verifier = verifier(List.of(SECRET));

  static StripeWebhookVerifier verifier(List<String> secrets) {
    return StripeWebhookVerifier.of(secrets)
        .withClock(Clock.fixed(Instant.ofEpochSecond(NOW), ZoneOffset.UTC));
  }

  static String header(long t, String secret, byte[] payload) {
    return "t=" + t + ",v1=" + stripeV1(secret, t, payload);
  }

  @Test
  void aValidDeliveryReturnsTheEventIdPayloadAndSigningTime() {
    VerifiedWebhook hook = verifier.verify(EVENT, header(NOW, SECRET, EVENT));

    assertThat(hook.id()).isEqualTo("evt_1QxYz");
    assertThat(hook.payload()).isEqualTo(EVENT);
    assertThat(hook.signedAt()).contains(Instant.ofEpochSecond(NOW));
    assertThat(hook.toString()).contains("evt_1QxYz").doesNotContain("charge.succeeded");
  }

  @Test
  void headersAreFoundIgnoringCaseAndStripesTestModeV0IsIgnored() {
    String value = header(NOW, SECRET, EVENT) + ",v0=" + "ab".repeat(32);
    assertThat(verifier.verify(EVENT, headers("stripe-signature", value)).id())
        .isEqualTo("evt_1QxYz");
  }

  @Test
  void aTamperedBodyIsASignatureMismatch() {
    String value = header(NOW, SECRET, EVENT);
    byte[] tampered = EVENT.clone();
    tampered[tampered.length - 3] ^= 1;
    assertFailure(() -> verifier.verify(tampered, value), WebhookFailure.SIGNATURE_MISMATCH);
  }

  @Test
  void aTimestampThatWasNotSignedIsASignatureMismatch() {
    String signature = stripeV1(SECRET, NOW - 1, EVENT);
    assertFailure(
        () -> verifier.verify(EVENT, "t=" + NOW + ",v1=" + signature),
        WebhookFailure.SIGNATURE_MISMATCH);
  }

  @Test
  void aWrongSecretIsASignatureMismatch() {
    assertFailure(
        () -> verifier.verify(EVENT, header(NOW, "whsec_someone_else", EVENT)),
        WebhookFailure.SIGNATURE_MISMATCH);
  }

  @Test
  void duringARotationEitherSecretIsAccepted() {
    StripeWebhookVerifier rotating = verifier(List.of(SECRET, OLD_SECRET));

    assertThat(rotating.verify(EVENT, header(NOW, OLD_SECRET, EVENT)).id()).isEqualTo("evt_1QxYz");
    assertThat(rotating.verify(EVENT, header(NOW, SECRET, EVENT)).id()).isEqualTo("evt_1QxYz");
    assertFailure(
        () -> verifier.verify(EVENT, header(NOW, OLD_SECRET, EVENT)),
        WebhookFailure.SIGNATURE_MISMATCH);
  }

  @Test
  void oneMatchingSignatureAmongSeveralIsEnough() {
    String value =
        "t="
            + NOW
            + ",v1="
            + stripeV1(OLD_SECRET, NOW, EVENT)
            + ",v1="
            + stripeV1(SECRET, NOW, EVENT);
    assertThat(verifier.verify(EVENT, value).id()).isEqualTo("evt_1QxYz");
  }

  @Test
  void aStaleTimestampIsRejectedAfterTheSignatureProvedAuthentic() {
    assertThat(verifier.verify(EVENT, header(NOW - 300, SECRET, EVENT)).id()).isNotEmpty();
    assertFailure(
        () -> verifier.verify(EVENT, header(NOW - 301, SECRET, EVENT)),
        WebhookFailure.TIMESTAMP_TOO_OLD);
    // A forged stale delivery is a mismatch, not "too old": the signature is checked first.
    assertFailure(
        () -> verifier.verify(EVENT, header(NOW - 3600, "whsec_forged", EVENT)),
        WebhookFailure.SIGNATURE_MISMATCH);
  }

  @Test
  void aFutureTimestampBeyondTheToleranceIsRejected() {
    assertThat(verifier.verify(EVENT, header(NOW + 300, SECRET, EVENT)).id()).isNotEmpty();
    assertFailure(
        () -> verifier.verify(EVENT, header(NOW + 301, SECRET, EVENT)),
        WebhookFailure.TIMESTAMP_IN_FUTURE);
  }

  @Test
  void theToleranceIsConfigurable() {
    StripeWebhookVerifier strict =
        StripeWebhookVerifier.of(SECRET)
            .withTolerance(Duration.ofSeconds(10))
            .withClock(Clock.fixed(Instant.ofEpochSecond(NOW), ZoneOffset.UTC));
    assertFailure(
        () -> strict.verify(EVENT, header(NOW - 11, SECRET, EVENT)),
        WebhookFailure.TIMESTAMP_TOO_OLD);
  }

  @Test
  void aMissingOrRepeatedHeaderIsRejected() {
    assertFailure(() -> verifier.verify(EVENT, headers()), WebhookFailure.MISSING_HEADER);
    assertFailure(() -> verifier.verify(EVENT, (String) null), WebhookFailure.MISSING_HEADER);
    assertFailure(() -> verifier.verify(EVENT, " "), WebhookFailure.MISSING_HEADER);
    String value = header(NOW, SECRET, EVENT);
    assertFailure(
        () -> verifier.verify(EVENT, headers("Stripe-Signature", value, "STRIPE-SIGNATURE", value)),
        WebhookFailure.DUPLICATE_HEADER);
  }

  @Test
  void malformedHeadersAreRejectedAsMalformed() {
    String v1 = ",v1=" + stripeV1(SECRET, NOW, EVENT);
    for (String bad :
        List.of(
            "v1=" + stripeV1(SECRET, NOW, EVENT), // no timestamp
            "t=" + NOW + ",t=" + NOW + v1, // repeated t
            "t=" + NOW + ",t=" + (NOW - 1000) + v1,
            "t=12ab" + v1,
            "t=-5" + v1,
            "t=+" + NOW + v1,
            "t=" + "9".repeat(40) + v1,
            "t=" + NOW + ",v1=zz" + stripeV1(SECRET, NOW, EVENT).substring(2),
            "t=" + NOW + ",v1=abc",
            "t=" + NOW + v1 + ",garbage",
            "t=" + NOW + v1 + ",=x",
            "t=" + NOW + v1 + ",,")) {
      assertFailure(() -> verifier.verify(EVENT, bad), WebhookFailure.MALFORMED_HEADER);
    }
  }

  @Test
  void onlyV1CountsSoAValidV0CannotDowngradeTheCheck() {
    String v0Only = "t=" + NOW + ",v0=" + stripeV1(SECRET, NOW, EVENT);
    assertFailure(() -> verifier.verify(EVENT, v0Only), WebhookFailure.NO_SIGNATURE);
  }

  @Test
  void hostileHeadersAreRejectedWithoutEchoingThem() {
    String huge = header(NOW, SECRET, EVENT) + ",x=" + "a".repeat(20_000);
    assertFailure(() -> verifier.verify(EVENT, huge), WebhookFailure.MALFORMED_HEADER);
    String nonAscii = "t=" + NOW + ",v1=é" + stripeV1(SECRET, NOW, EVENT);
    assertFailure(() -> verifier.verify(EVENT, nonAscii), WebhookFailure.MALFORMED_HEADER);
    String control = header(NOW, SECRET, EVENT) + "\n";
    assertFailure(() -> verifier.verify(EVENT, control), WebhookFailure.MALFORMED_HEADER);
    String thousandSignatures = "t=" + NOW + (",v1=" + "0".repeat(64)).repeat(100);
    assertFailure(
        () -> verifier.verify(EVENT, thousandSignatures), WebhookFailure.SIGNATURE_MISMATCH);
  }

  @Test
  void aSignedPayloadWithoutOneUsableTopLevelIdIsMalformed() {
    for (String body :
        List.of(
            "{\"object\":\"event\",\"data\":{\"id\":\"nested_only\"}}",
            "{\"id\":\"evt_a\",\"id\":\"evt_b\"}",
            "{\"id\":42}",
            "{\"id\":\"\"}",
            "{\"id\":\"evt with space\"}",
            "{\"id\":\"evt_\\u00e9\"}",
            "[\"id\",\"evt_1\"]",
            "{\"id\":\"evt_1\"",
            "{\"id\":\"evt_1\"} trailing",
            "not json",
            "")) {
      byte[] payload = utf8(body);
      assertFailure(
          () -> verifier.verify(payload, header(NOW, SECRET, payload)),
          WebhookFailure.MALFORMED_PAYLOAD);
    }
    byte[] invalidUtf8 = {'{', '"', 'i', 'd', '"', ':', '"', (byte) 0xff, '"', '}'};
    assertFailure(
        () -> verifier.verify(invalidUtf8, header(NOW, SECRET, invalidUtf8)),
        WebhookFailure.MALFORMED_PAYLOAD);
  }

  @Test
  void theIdIsReadAcrossNestingEscapesAndWhitespace() {
    byte[] payload =
        utf8(
            " {\n \"data\" : {\"object\": {\"id\": \"ch_1\", \"list\": [1, -2.5e3, true, null,"
                + " {\"id\": \"x\"}], \"s\": \"a \\\"quoted\\\" } ]\"}},\n"
                + " \"created\": 1700000000, \"id\" : \"evt_\\u0041bc\" } ");
    assertThat(verifier.verify(payload, header(NOW, SECRET, payload)).id()).isEqualTo("evt_Abc");
  }

  @Test
  void deeplyNestedPayloadsAreRejectedWithoutAStackOverflow() {
    byte[] payload = utf8("{\"a\":" + "[".repeat(100_000) + "]".repeat(100_000) + ",\"id\":\"e\"}");
    assertFailure(
        () -> verifier.verify(payload, header(NOW, SECRET, payload)),
        WebhookFailure.MALFORMED_PAYLOAD);
  }

  @Test
  void noFailureMessageContainsTheSecretTheSignatureOrThePayload() {
    String signature = stripeV1(SECRET, NOW, EVENT);
    List<ThrowingCallable> calls =
        List.of(
            () -> verifier.verify(utf8("{\"id\":\"evt_2\"}"), "t=" + NOW + ",v1=" + signature),
            () -> verifier.verify(EVENT, "t=" + (NOW - 999) + ",v1=" + signature),
            () -> verifier.verify(EVENT, "t=x,v1=" + signature));
    for (ThrowingCallable call : calls) {
      assertThatThrownBy(call)
          .isInstanceOf(WebhookVerificationException.class)
          .message()
          .doesNotContain(SECRET)
          .doesNotContain(signature)
          .doesNotContain(signature.substring(0, 16))
          .doesNotContain("evt_");
    }
    assertThat(verifier.toString()).doesNotContain(SECRET).contains("secrets=1");
  }

  @Test
  void theFactoriesRejectMissingEmptyAndPaddedSecretsWithoutQuotingThem() {
    assertThatThrownBy(() -> StripeWebhookVerifier.of((String) null))
        .isInstanceOf(NullPointerException.class)
        .hasMessageContaining("secret");
    assertThatThrownBy(() -> StripeWebhookVerifier.of(""))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("secrets[0] is empty");
    assertThatThrownBy(() -> StripeWebhookVerifier.of(" " + SECRET))
        .isInstanceOf(IllegalArgumentException.class)
        .message()
        .doesNotContain(SECRET);
    assertThatThrownBy(() -> StripeWebhookVerifier.of(List.of()))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> StripeWebhookVerifier.of(SECRET).withTolerance(Duration.ZERO))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("tolerance");
  }

  static void assertFailure(ThrowingCallable call, WebhookFailure failure) {
    assertThatThrownBy(call)
        .isInstanceOfSatisfying(
            WebhookVerificationException.class, e -> assertThat(e.failure()).isEqualTo(failure));
  }
}
