package dev.saferetry.testing;

import java.util.List;

/**
 * Targets a stored row could carry: ones that would reach another path (or host) than the one
 * enqueued under the base URL, once an HTTP client or a server on the way has normalised, decoded
 * (once or repeatedly) or split them, and look-alikes that are harmless.
 */
public final class HostileTargets {
  private HostileTargets() {}

  /** Each leaves the base path, the host, or the request line when read by someone on the way. */
  public static final List<String> HOSTILE =
      List.of(
          "/v1/charges",
          "//evil.example/v1",
          "https://evil.example/v1",
          "http:evil.example/v1",
          "v1/../internal",
          "v1/./charges",
          "..",
          "v1/...",
          "v1\\charges",
          "v1/charges?x=a b",
          "v1/charges\r\nHost: x",
          "",
          "v1/ch\u00e4rges",
          "v1/charges#fragment",
          // percent-encoded dots, any case, mixed with literal dots
          "v1/%2e%2e/internal",
          "v1/%2E%2E/internal",
          "v1/%2e%2E/internal",
          "v1/.%2e/internal",
          "v1/%2e./internal",
          "v1/%2e/charges",
          "%2e%2e/internal",
          "v1/%2e%2e%2e/internal",
          // encoded twice, three times, and more than any server decodes
          "v1/%252e%252e/internal",
          "v1/%25252e%25252E/internal",
          "v1/%252525252525252525252e%252525252525252525252e/internal",
          // path parameters that servers drop before resolving dot segments
          "v1/..;/internal",
          "v1/..;jsessionid=x/internal",
          "v1/%2e%2e;x=1/internal",
          "v1/..%3b/internal",
          "v1/.%2e%3Bjsessionid/internal",
          // encoded slashes and backslashes, once or twice
          "v1/..%2finternal",
          "v1%2f..%2finternal",
          "v1/%2F..%2Finternal",
          "v1/%5c..%5cinternal",
          "v1/..%5Cinternal",
          "v1/%252f..%252finternal",
          "%2f%2fevil.example/x",
          // overlong UTF-8 dots and slashes, spaces around dots, control characters
          "v1/%c0%ae%c0%ae/internal",
          "v1/%e0%80%ae%e0%80%ae/internal",
          "v1/%c0%af..%c0%afinternal",
          "v1/%20..%20/internal",
          "v1/%09../internal",
          "v1/%00/internal",
          "v1/charges%0d%0aHost:%20internal",
          // malformed escapes
          "v1/%zz/charges",
          "v1/charges%2",
          "v1/charges%");

  /** Look-alikes that stay where they say. */
  public static final List<String> HARMLESS =
      List.of(
          "v1/customers/cus_1/charges?expand[]=customer&t=a:b",
          "v1/charges?next=../../internal&x=%2e%2e%2f",
          "v1/charges/",
          "v1/.well-known/x",
          "v1/ch_1..2",
          "v1/a%20b",
          "v1/caf%C3%A9",
          "v1/100%25",
          "v1/a;b=c",
          "v1/%2Dx");
}
