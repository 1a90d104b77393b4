package dev.saferetry.pagination;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.saferetry.internal.codec.Links;
import java.util.List;
import okhttp3.HttpUrl;
import org.junit.jupiter.api.Test;

/** A next-page link is followed only within the client's base URL. */
class NextLinkTest {
  private static final HttpUrl BASE = HttpUrl.get("https://api-m.paypal.com");
  private static final HttpUrl PREFIXED = HttpUrl.get("https://gw.example.com/paypal/");

  @Test
  void absoluteAndRelativeLinksWithinTheBaseAreFollowed() {
    assertThat(Links.resolveWithin(BASE, "https://api-m.paypal.com/v1/invoices?page=2").toString())
        .isEqualTo("https://api-m.paypal.com/v1/invoices?page=2");
    assertThat(Links.resolveWithin(BASE, "/v1/invoices?page=3").encodedQuery()).isEqualTo("page=3");
    assertThat(Links.resolveWithin(PREFIXED, "/paypal/v1/invoices?page=2").encodedPath())
        .isEqualTo("/paypal/v1/invoices");
  }

  @Test
  void linksLeavingTheOriginOrPathAreRefusedWithoutEchoingThem() {
    for (String hostile :
        List.of(
            "https://evil.example/v1/invoices?token=secret",
            "http://api-m.paypal.com/v1/invoices",
            "https://api-m.paypal.com:8443/v1/invoices",
            "//evil.example/x",
            "https://api-m.paypal.com.evil.example/v1")) {
      assertThatThrownBy(() -> Links.resolveWithin(BASE, hostile))
          .as(hostile)
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageNotContaining("secret")
          .hasMessageNotContaining("evil");
    }
    assertThatThrownBy(() -> Links.resolveWithin(PREFIXED, "/admin/users"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("path");
    assertThatThrownBy(() -> Links.resolveWithin(PREFIXED, "/paypalx/v1"))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void encodedStepsOutOfTheBasePathAreRefusedOnceDecodedOrNormalised() {
    for (String hostile :
        List.of(
            "/paypal/%2e%2e/admin",
            "/paypal/%2E%2E/admin",
            "/paypal/v1/.%2e/.%2e/admin",
            "/paypal\\..\\admin",
            "/paypal/..%2fadmin",
            "/paypal/v1/..%5cadmin",
            "/paypal/v1/..;/admin",
            "/paypal/%252e%252e/admin")) {
      assertThatThrownBy(() -> Links.resolveWithin(PREFIXED, hostile))
          .as(hostile)
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageNotContaining("admin");
    }
    assertThat(Links.resolveWithin(PREFIXED, "/paypal/v1/invoices/.../x;y?page=%2e%2e").toString())
        .isEqualTo("https://gw.example.com/paypal/v1/invoices/.../x;y?page=%2e%2e");
  }
}
