package dev.saferetry.conformance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The suite's own signatures against values computed elsewhere: Stripe's by OpenSSL ({@code printf
 * '%s' "$t.$body" | openssl dgst -sha256 -hmac "$secret"}), Standard Webhooks' by the example the
 * specification's libraries share.
 */
class SignatureSchemeTest {

  @Test
  void stripeSignsTimestampDotBodyWithTheWholeSecretAsHex() {
    SignatureScheme stripe = SignatureScheme.named("stripe");
    byte[] key = stripe.key("whsec_conformance_vector");

    Map<String, String> headers =
        stripe.sign(key, "evt_1", 1700000000L, "{\"id\":\"evt_1\",\"object\":\"event\"}");

    assertThat(headers)
        .containsExactly(
            Map.entry(
                "Stripe-Signature",
                "t=1700000000,v1=48083ab130237debee2c16bba4ca8a06f658ba5a08fb77f352ea74947d199a22"));
  }

  @Test
  void standardWebhooksSignIdDotTimestampDotBodyWithTheDecodedSecret() {
    SignatureScheme standard = SignatureScheme.named("Standard-Webhooks");
    byte[] key = standard.key("whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw");

    Map<String, String> headers =
        standard.sign(key, "msg_p5jXN8AQM9LWM0D4loKWxJek", 1614265330L, "{\"test\": 2432232314}");

    assertThat(headers)
        .containsEntry("webhook-id", "msg_p5jXN8AQM9LWM0D4loKWxJek")
        .containsEntry("webhook-timestamp", "1614265330")
        .containsEntry("webhook-signature", "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=");
  }

  @Test
  void badVariantsNeverCarryTheValidSignature() {
    for (SignatureScheme scheme : SignatureScheme.values()) {
      byte[] key = scheme.key(scheme.randomSecret());
      Map<String, String> valid = scheme.sign(key, "evt_x", 1700000000L, "{}");
      String validSignature =
          valid.get(scheme == SignatureScheme.STRIPE ? "Stripe-Signature" : "webhook-signature");

      scheme
          .malformed(key, "evt_x", 1700000000L, "{}")
          .forEach((label, headers) -> assertThat(headers).as(label).isNotEqualTo(valid));
      assertThat(scheme.otherScheme(key, "evt_x", 1700000000L, "{}").values())
          .doesNotContain(validSignature);
      assertThat(scheme.unsigned("evt_x", 1700000000L).values()).doesNotContain(validSignature);
    }
  }

  @Test
  void unknownSchemesAndMalformedSecretsAreRefusedWithoutQuotingTheSecret() {
    assertThatThrownBy(() -> SignatureScheme.named("github"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("stripe or standard-webhooks");
    assertThatThrownBy(() -> SignatureScheme.STANDARD_WEBHOOKS.key("whsec_s3cr3t!!"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageNotContaining("s3cr3t");
  }
}
