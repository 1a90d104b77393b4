package dev.saferetry.internal.storedrequest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.saferetry.idempotency.KeyPlacement;
import dev.saferetry.idempotency.StoredRequest;
import dev.saferetry.testing.HostileTargets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A stored request is validated when made: nothing unsafe to re-send later is ever stored. */
class StoredRequestTest {
  private static StoredRequest post(String target, Map<String, String> headers) {
    return new StoredRequest(
        "POST", target, KeyPlacement.header(), headers, "application/json", new byte[] {1});
  }

  @Test
  void credentialHeadersAreNeverStoredWhateverTheirCase() {
    for (String name :
        new String[] {
          "Authorization",
          "proxy-authorization",
          "COOKIE",
          "X-Api-Key",
          "x-auth-token",
          "X-AUTH-TOKEN",
          "X-Merchant-Secret",
          "X-Access-Token",
          "Api-Key",
          "X-Password",
          "X-Request-Signature",
          "PayPal-Auth-Assertion"
        }) {
      assertThatThrownBy(() -> post("v1/charges", Map.of(name, "secret-value")))
          .as(name)
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("never stored")
          .hasMessageNotContaining("secret-value");
    }
  }

  @Test
  void headersThatFrameOrRouteTheRequestOrCarryTheKeyAreNeverStored() {
    for (String name :
        new String[] {
          "Host",
          "content-length",
          "Content-Type",
          "Transfer-Encoding",
          "Connection",
          "Upgrade",
          "Expect",
          "x-request-id",
          "IDEMPOTENCY-KEY"
        }) {
      assertThatThrownBy(() -> post("v1/charges", Map.of(name, "internal.example")))
          .as(name)
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageNotContaining("internal.example");
    }
    // The key's own header, in any case, when the key goes in another header.
    assertThatThrownBy(
            () ->
                new StoredRequest(
                    "POST",
                    "v1/orders",
                    KeyPlacement.header("PayPal-Request-Id"),
                    Map.of("paypal-request-id", "other-key"),
                    null,
                    null))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("carries the key");
  }

  @Test
  void theKeyGoesOnlyWhereASenderCanPutItSafely() {
    for (KeyPlacement bad :
        List.of(
            KeyPlacement.header("Authorization"),
            KeyPlacement.header("Cookie"),
            KeyPlacement.header("X-Request-Id"),
            KeyPlacement.header("Host"),
            KeyPlacement.header("Content-Length"),
            KeyPlacement.header("Bad Name"),
            KeyPlacement.header("X-Key\r\nInjected"),
            KeyPlacement.bodyField("idem\u0000key"),
            KeyPlacement.bodyField("idem\nkey"),
            KeyPlacement.bodyField("idem\uD800"),
            KeyPlacement.bodyField("x".repeat(256)))) {
      assertThatThrownBy(
              () ->
                  new StoredRequest(
                      "POST", "v1/x", bad, Map.of(), "application/json", "{}".getBytes()))
          .as(bad.toString())
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("keyPlacement");
    }
    assertThatThrownBy(
            () ->
                new StoredRequest(
                    "POST",
                    "v1/x",
                    KeyPlacement.bodyField("idempotency_key"),
                    Map.of(),
                    null,
                    null))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("body");
    assertThatThrownBy(() -> new StoredRequest("POST", "v1/x", null, Map.of(), null, null))
        .isInstanceOf(NullPointerException.class)
        .hasMessageContaining("keyPlacement");
  }

  @Test
  void targetsThatCouldLeaveTheBaseUrlAreRefusedHoweverTheyAreEncoded() {
    for (String target : HostileTargets.HOSTILE) {
      assertThatThrownBy(() -> post(target, Map.of()))
          .as(target)
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("target");
    }
    for (String target : HostileTargets.HARMLESS) {
      assertThat(post(target, Map.of()).target()).as(target).isEqualTo(target);
    }
  }

  @Test
  void headersThatCouldSplitARequestOrRepeatAreRefused() {
    Map<String, String> twice = new LinkedHashMap<>();
    twice.put("Stripe-Account", "a");
    twice.put("stripe-account", "b");
    for (Map<String, String> bad :
        List.of(
            Map.of("X-Tenant", "a\r\nInjected: 1"),
            Map.of("Bad Name", "v"),
            Map.of("X-Tenant", "\u00e9"),
            Map.of("X-Tenant", "a\u0000b"),
            twice)) {
      assertThatThrownBy(() -> post("v1/charges", bad))
          .isInstanceOf(IllegalArgumentException.class);
    }
  }

  @Test
  void theBodyIsCopiedInAndOutAndNeverPrinted() {
    byte[] body = "{\"card\":\"4242\"}".getBytes();
    Map<String, String> headers = new LinkedHashMap<>();
    headers.put("Stripe-Account", "acct_secretish");
    StoredRequest request =
        new StoredRequest(
            "POST",
            "v1/charges?customer=cus_9",
            KeyPlacement.header(),
            headers,
            "application/json",
            body);
    body[0] = 'X';
    request.body()[1] = 'Y';

    assertThat(new String(request.body())).isEqualTo("{\"card\":\"4242\"}");
    assertThat(request)
        .isEqualTo(
            new StoredRequest(
                "POST",
                "v1/charges?customer=cus_9",
                KeyPlacement.header("Idempotency-Key"),
                headers,
                "application/json",
                "{\"card\":\"4242\"}".getBytes()))
        .isNotEqualTo(
            new StoredRequest(
                "POST",
                "v1/charges?customer=cus_9",
                KeyPlacement.structuredHeader("Idempotency-Key"),
                headers,
                "application/json",
                "{\"card\":\"4242\"}".getBytes()));
    assertThat(request.toString())
        .contains("POST v1/charges", "Stripe-Account", "15 bytes", "header Idempotency-Key")
        .doesNotContain("4242", "cus_9", "acct_secretish");
  }

  @Test
  void oversizedBodiesAndBadMethodsAreRefused() {
    assertThatThrownBy(
            () ->
                new StoredRequest(
                    "POST",
                    "v1/x",
                    KeyPlacement.header(),
                    Map.of(),
                    "application/octet-stream",
                    new byte[StoredRequest.MAX_BODY_BYTES + 1]))
        .hasMessageContaining("body");
    assertThatThrownBy(
            () -> new StoredRequest("post", "v1/x", KeyPlacement.header(), Map.of(), null, null))
        .hasMessageContaining("method");
  }
}
