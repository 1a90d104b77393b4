package dev.saferetry.webhook;

import static dev.saferetry.webhook.Signing.github;
import static dev.saferetry.webhook.Signing.headers;
import static dev.saferetry.webhook.Signing.utf8;
import static dev.saferetry.webhook.StripeWebhookVerifierTest.assertFailure;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

class GitHubWebhookVerifierTest {
  static final String SECRET = "It's a Secret to Everybody";
  static final String DELIVERY = "72d3162e-cc78-11e3-81ab-4c9367dc0958";
  static final byte[] BODY = utf8("{\"action\":\"opened\",\"number\":1}");

  final GitHubWebhookVerifier verifier = GitHubWebhookVerifier.of(SECRET);

  @Test
  void theTestVectorPublishedByGitHubVerifies() {
    // GitHub's guide gives this secret, payload and signature to check an implementation with.
    String published = "sha256=757107ea0eb2509fc211221cce984b8a37570b6d7586c22c46f4379c8b043e17";
    assertThat(github(SECRET, utf8("Hello, World!"))).isEqualTo(published);

    VerifiedWebhook hook =
        verifier.verify(
            utf8("Hello, World!"),
            headers("X-Hub-Signature-256", published, "X-GitHub-Delivery", DELIVERY));

    assertThat(hook.id()).isEqualTo(DELIVERY);
    assertThat(hook.signedAt()).isEmpty();
    assertThat(hook.payloadAsString()).isEqualTo("Hello, World!");
  }

  @Test
  void aValidDeliveryReturnsTheDeliveryGuid() {
    VerifiedWebhook hook =
        verifier.verify(
            BODY,
            headers("x-hub-signature-256", github(SECRET, BODY), "x-github-delivery", DELIVERY));
    assertThat(hook.id()).isEqualTo(DELIVERY);
    assertThat(hook.payload()).isEqualTo(BODY);
  }

  @Test
  void aTamperedBodyOrAWrongSecretIsASignatureMismatch() {
    assertFailure(
        () -> verifier.verify(utf8("{\"action\":\"closed\",\"number\":1}"), signed(BODY, SECRET)),
        WebhookFailure.SIGNATURE_MISMATCH);
    assertFailure(
        () -> verifier.verify(BODY, signed(BODY, "another secret")),
        WebhookFailure.SIGNATURE_MISMATCH);
  }

  @Test
  void duringARotationEitherSecretIsAccepted() {
    GitHubWebhookVerifier rotating = GitHubWebhookVerifier.of(List.of("new secret", SECRET));
    assertThat(rotating.verify(BODY, signed(BODY, SECRET)).id()).isEqualTo(DELIVERY);
    assertThat(rotating.verify(BODY, signed(BODY, "new secret")).id()).isEqualTo(DELIVERY);
  }

  @Test
  void missingAndRepeatedHeadersAreRejected() {
    assertFailure(
        () -> verifier.verify(BODY, headers("X-GitHub-Delivery", DELIVERY)),
        WebhookFailure.MISSING_HEADER);
    assertFailure(
        () -> verifier.verify(BODY, headers("X-Hub-Signature-256", github(SECRET, BODY))),
        WebhookFailure.MISSING_HEADER);
    assertFailure(
        () ->
            verifier.verify(
                BODY,
                headers(
                    "X-Hub-Signature-256", github(SECRET, BODY),
                    "X-Hub-Signature-256", github("x", BODY),
                    "X-GitHub-Delivery", DELIVERY)),
        WebhookFailure.DUPLICATE_HEADER);
  }

  @Test
  void theLegacySha1HeaderIsNeverADowngradePath() {
    assertFailure(
        () ->
            verifier.verify(
                BODY, headers("X-Hub-Signature", "sha1=0123456789", "X-GitHub-Delivery", DELIVERY)),
        WebhookFailure.MISSING_HEADER);
    assertFailure(
        () ->
            verifier.verify(
                BODY,
                headers(
                    "X-Hub-Signature-256",
                    github(SECRET, BODY).replace("sha256=", "sha1="),
                    "X-GitHub-Delivery",
                    DELIVERY)),
        WebhookFailure.NO_SIGNATURE);
  }

  @Test
  void malformedSignaturesAndDeliveryIdsAreRejected() {
    String good = github(SECRET, BODY);
    for (String bad : List.of(good + "00", good.substring(0, 70), "sha256=" + "g".repeat(64))) {
      assertFailure(
          () ->
              verifier.verify(
                  BODY, headers("X-Hub-Signature-256", bad, "X-GitHub-Delivery", DELIVERY)),
          WebhookFailure.MALFORMED_HEADER);
    }
    for (String badId : List.of("a b", "x".repeat(256), "ünïcode")) {
      assertFailure(
          () ->
              verifier.verify(
                  BODY, headers("X-Hub-Signature-256", good, "X-GitHub-Delivery", badId)),
          WebhookFailure.MALFORMED_HEADER);
    }
  }

  @Test
  void theFactoriesRejectEmptyAndMissingSecrets() {
    assertThatThrownBy(() -> GitHubWebhookVerifier.of(""))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> GitHubWebhookVerifier.of((String) null))
        .isInstanceOf(NullPointerException.class);
    assertThat(verifier.toString()).doesNotContain(SECRET);
  }

  private static java.util.Map<String, List<String>> signed(byte[] body, String secret) {
    return headers("X-Hub-Signature-256", github(secret, body), "X-GitHub-Delivery", DELIVERY);
  }
}
