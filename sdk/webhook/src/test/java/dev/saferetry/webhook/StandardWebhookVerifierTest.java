package dev.saferetry.webhook;

import static dev.saferetry.webhook.Signing.headers;
import static dev.saferetry.webhook.Signing.standardV1;
import static dev.saferetry.webhook.Signing.utf8;
import static dev.saferetry.webhook.StripeWebhookVerifierTest.assertFailure;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class StandardWebhookVerifierTest {
  // The example secret, message and signature used across the Standard Webhooks libraries.
  static final String SECRET = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
  static final String OTHER = "whsec_" + "QUJDREVGR0hJSktMTU5PUFFSU1RVVldYWVo0MjQy";
  static final String ID = "msg_p5jXN8AQM9LWM0D4loKWxJek";
  static final long TS = 1614265330;
  static final byte[] BODY = utf8("{\"test\": 2432232314}");

  final StandardWebhookVerifier verifier = verifier(List.of(SECRET), TS);

  static StandardWebhookVerifier verifier(List<String> secrets, long now) {
    return StandardWebhookVerifier.of(secrets)
        .withClock(Clock.fixed(Instant.ofEpochSecond(now), ZoneOffset.UTC));
  }

  static Map<String, List<String>> signed(String id, long ts, String signature) {
    return headers(
        "webhook-id", id, "webhook-timestamp", Long.toString(ts), "webhook-signature", signature);
  }

  @Test
  void theSpecificationsExampleVerifies() {
    String published = "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=";
    assertThat(standardV1(SECRET, ID, TS, BODY)).isEqualTo(published);

    VerifiedWebhook hook = verifier.verify(BODY, signed(ID, TS, published));

    assertThat(hook.id()).isEqualTo(ID);
    assertThat(hook.signedAt()).contains(Instant.ofEpochSecond(TS));
    assertThat(hook.payload()).isEqualTo(BODY);
  }

  @Test
  void aSecretWithoutTheWhsecPrefixIsTheSameKey() {
    StandardWebhookVerifier bare = verifier(List.of(SECRET.substring(6)), TS);
    assertThat(bare.verify(BODY, signed(ID, TS, standardV1(SECRET, ID, TS, BODY))).id())
        .isEqualTo(ID);
  }

  @Test
  void tamperedBodyIdOrTimestampAndWrongSecretsAreMismatches() {
    String signature = standardV1(SECRET, ID, TS, BODY);
    assertFailure(
        () -> verifier.verify(utf8("{\"test\": 2432232315}"), signed(ID, TS, signature)),
        WebhookFailure.SIGNATURE_MISMATCH);
    assertFailure(
        () -> verifier.verify(BODY, signed("msg_other", TS, signature)),
        WebhookFailure.SIGNATURE_MISMATCH);
    assertFailure(
        () -> verifier.verify(BODY, signed(ID, TS + 1, signature)),
        WebhookFailure.SIGNATURE_MISMATCH);
    assertFailure(
        () -> verifier.verify(BODY, signed(ID, TS, standardV1(OTHER, ID, TS, BODY))),
        WebhookFailure.SIGNATURE_MISMATCH);
  }

  @Test
  void severalSpaceSeparatedSignaturesAreAcceptedWhenOneMatches() {
    String header =
        "v1a,bm90IGFuIGVkMjU1MTkgc2lnbmF0dXJl  "
            + standardV1(OTHER, ID, TS, BODY)
            + " "
            + standardV1(SECRET, ID, TS, BODY);
    assertThat(verifier.verify(BODY, signed(ID, TS, header)).id()).isEqualTo(ID);
  }

  @Test
  void duringARotationEitherSecretIsAccepted() {
    StandardWebhookVerifier rotating = verifier(List.of(OTHER, SECRET), TS);
    assertThat(rotating.verify(BODY, signed(ID, TS, standardV1(OTHER, ID, TS, BODY))).id())
        .isEqualTo(ID);
    assertThat(rotating.verify(BODY, signed(ID, TS, standardV1(SECRET, ID, TS, BODY))).id())
        .isEqualTo(ID);
  }

  @Test
  void staleAndFutureTimestampsAreRejectedOutsideFiveMinutes() {
    String signature = standardV1(SECRET, ID, TS, BODY);
    assertThat(verifier(List.of(SECRET), TS + 300).verify(BODY, signed(ID, TS, signature)).id())
        .isEqualTo(ID);
    assertFailure(
        () -> verifier(List.of(SECRET), TS + 301).verify(BODY, signed(ID, TS, signature)),
        WebhookFailure.TIMESTAMP_TOO_OLD);
    assertFailure(
        () -> verifier(List.of(SECRET), TS - 301).verify(BODY, signed(ID, TS, signature)),
        WebhookFailure.TIMESTAMP_IN_FUTURE);
  }

  @Test
  void onlyAsymmetricSignaturesMeanNoUsableSignature() {
    assertFailure(
        () -> verifier.verify(BODY, signed(ID, TS, "v1a,c2lnbmF0dXJl v2,abc")),
        WebhookFailure.NO_SIGNATURE);
  }

  @Test
  void missingRepeatedAndMalformedHeadersAreRejected() {
    String signature = standardV1(SECRET, ID, TS, BODY);
    assertFailure(
        () -> verifier.verify(BODY, headers("webhook-id", ID, "webhook-signature", signature)),
        WebhookFailure.MISSING_HEADER);
    Map<String, List<String>> twice = signed(ID, TS, signature);
    twice.get("webhook-id").add("msg_second");
    assertFailure(() -> verifier.verify(BODY, twice), WebhookFailure.DUPLICATE_HEADER);
    for (String bad :
        List.of("v1" + signature.substring(2).replace(',', '='), "v1,not base64!", "v1,AAAA")) {
      assertFailure(
          () -> verifier.verify(BODY, signed(ID, TS, bad)), WebhookFailure.MALFORMED_HEADER);
    }
    for (String ts : List.of("16142653e0", "-1614265330", "1614265330.5", "9".repeat(19))) {
      assertFailure(
          () ->
              verifier.verify(
                  BODY,
                  headers(
                      "webhook-id", ID, "webhook-timestamp", ts, "webhook-signature", signature)),
          WebhookFailure.MALFORMED_HEADER);
    }
  }

  @Test
  void anIdWithAFullStopCannotReSplitTheSignedBytes() {
    // Signed: id "msg_1", timestamp TS, body "TS.{...}". Presented: id "msg_1.TS", timestamp TS,
    // body "{...}" — the very same signed bytes with another id and another body.
    byte[] inner = utf8("{\"amount\":1}");
    byte[] signedBody = utf8(TS + "." + "{\"amount\":1}");
    String signature = standardV1(SECRET, "msg_1", TS, signedBody);
    assertThat(verifier.verify(signedBody, signed("msg_1", TS, signature)).id()).isEqualTo("msg_1");

    assertFailure(
        () -> verifier.verify(inner, signed("msg_1." + TS, TS, signature)),
        WebhookFailure.MALFORMED_HEADER);
  }

  @Test
  void secretsAreValidatedWithoutBeingQuoted() {
    assertThatThrownBy(() -> verifier(List.of("whsec_!!notbase64!!"), TS))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("secrets[0] is not whsec_ followed by base64");
    assertThatThrownBy(() -> verifier(List.of(SECRET, "whsec_c2hvcnQ="), TS))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("secrets[1] must decode to 24..64 bytes");
    assertThatThrownBy(() -> verifier(List.of("whsec_"), TS))
        .isInstanceOf(IllegalArgumentException.class);
    assertThat(verifier.toString()).doesNotContain(SECRET.substring(6));
  }
}
