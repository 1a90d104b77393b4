package dev.saferetry.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A stored request is validated when made: nothing unsafe to re-send later is ever stored. */
class StoredRequestTest {
  private static StoredRequest post(String target, Map<String, String> headers) {
    return new StoredRequest("POST", target, headers, "application/json", new byte[] {1});
  }

  @Test
  void credentialHeadersAreNeverStored() {
    for (String name :
        new String[] {"Authorization", "proxy-authorization", "COOKIE", "X-Api-Key"}) {
      assertThatThrownBy(() -> post("v1/charges", Map.of(name, "secret-value")))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("never stored")
          .hasMessageNotContaining("secret-value");
    }
  }

  @Test
  void targetsThatCouldLeaveTheBaseUrlAreRefused() {
    for (String target :
        new String[] {
          "/v1/charges",
          "//evil.example/v1",
          "https://evil.example/v1",
          "v1/../admin",
          "v1/./charges",
          "..",
          "v1\\charges",
          "v1/charges?x=a b",
          "v1/charges\r\nHost: x",
          "",
          "v1/ch\u00e4rges"
        }) {
      assertThatThrownBy(() -> post(target, Map.of()))
          .as(target)
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("target");
    }
    assertThat(post("v1/customers/cus_1/charges?expand[]=customer&t=a:b", Map.of()).target())
        .isEqualTo("v1/customers/cus_1/charges?expand[]=customer&t=a:b");
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
        new StoredRequest("POST", "v1/charges?customer=cus_9", headers, "application/json", body);
    body[0] = 'X';
    request.body()[1] = 'Y';

    assertThat(new String(request.body())).isEqualTo("{\"card\":\"4242\"}");
    assertThat(request)
        .isEqualTo(
            new StoredRequest(
                "POST",
                "v1/charges?customer=cus_9",
                headers,
                "application/json",
                "{\"card\":\"4242\"}".getBytes()));
    assertThat(request.toString())
        .contains("POST v1/charges", "Stripe-Account", "15 bytes")
        .doesNotContain("4242", "cus_9", "acct_secretish");
  }

  @Test
  void oversizedBodiesAndBadMethodsAreRefused() {
    assertThatThrownBy(
            () ->
                new StoredRequest(
                    "POST",
                    "v1/x",
                    Map.of(),
                    "application/octet-stream",
                    new byte[StoredRequest.MAX_BODY_BYTES + 1]))
        .hasMessageContaining("body");
    assertThatThrownBy(() -> new StoredRequest("post", "v1/x", Map.of(), null, null))
        .hasMessageContaining("method");
  }
}
