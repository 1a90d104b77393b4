package dev.saferetry.jdbc;

import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;

/**
 * Everything needed to send an intent's request later, exactly as it would have been sent now:
 * stored with the intent when it is recorded for the relay ({@link JdbcOutbox#enqueue}).
 *
 * <p>Credentials are never stored: {@code Authorization}, {@code Proxy-Authorization}, {@code
 * Cookie} and {@code X-Api-Key} headers are refused, because the sender adds its own. The key is
 * not a header here either: it is the intent's, and the sender places it as its client is
 * configured to.
 *
 * <p>Instances are immutable and thread-safe.
 *
 * @param method the HTTP method, upper case, e.g. {@code POST}
 * @param target the path and query relative to the client's base URL, without a leading slash, e.g.
 *     {@code v1/charges?expand[]=customer}; no {@code .} or {@code ..} segments, no scheme, no
 *     spaces or control characters, at most {@value #MAX_TARGET_LENGTH} characters
 * @param headers identity headers to send with it (e.g. {@code Stripe-Account}), in order; names
 *     are HTTP tokens, unique ignoring case; values visible ASCII, spaces and tabs
 * @param contentType the body's media type, or {@code null} when there is no body
 * @param body the exact body bytes, or {@code null}; at most {@value #MAX_BODY_BYTES} bytes
 */
public record StoredRequest(
    String method, String target, Map<String, String> headers, String contentType, byte[] body) {

  /** The longest target accepted, in characters. */
  public static final int MAX_TARGET_LENGTH = 8192;

  /** The largest body accepted, in bytes. */
  public static final int MAX_BODY_BYTES = 1 << 20;

  private static final Pattern METHOD = Pattern.compile("[A-Z]{1,16}");
  private static final Pattern TOKEN = Pattern.compile("[!#$%&'*+.^_`|~0-9A-Za-z-]{1,128}");
  private static final Pattern VALUE = Pattern.compile("[\\x20-\\x7E\\t]{0,4096}");
  private static final Set<String> CREDENTIALS =
      Set.of("authorization", "proxy-authorization", "cookie", "x-api-key");

  /**
   * Validates and copies the request.
   *
   * @param method the HTTP method, upper case, e.g. {@code POST}
   * @param target the path and query relative to the client's base URL, without a leading slash,
   *     e.g. {@code v1/charges?expand[]=customer}; no {@code .} or {@code ..} segments, no scheme,
   *     no spaces or control characters, at most {@value #MAX_TARGET_LENGTH} characters
   * @param headers identity headers to send with it (e.g. {@code Stripe-Account}), in order; names
   *     are HTTP tokens, unique ignoring case; values visible ASCII, spaces and tabs
   * @param contentType the body's media type, or {@code null} when there is no body
   * @param body the exact body bytes, or {@code null}; at most {@value #MAX_BODY_BYTES} bytes
   * @throws IllegalArgumentException naming the part that is not acceptable
   */
  public StoredRequest {
    Objects.requireNonNull(method, "method");
    Objects.requireNonNull(target, "target");
    Objects.requireNonNull(headers, "headers");
    if (!METHOD.matcher(method).matches()) {
      throw new IllegalArgumentException("method must be 1..16 upper-case letters");
    }
    checkTarget(target);
    headers = checkHeaders(headers);
    if (contentType != null && (contentType.isBlank() || !VALUE.matcher(contentType).matches())) {
      throw new IllegalArgumentException("contentType must be visible ASCII");
    }
    if (body != null) {
      if (body.length > MAX_BODY_BYTES) {
        throw new IllegalArgumentException("body must be at most " + MAX_BODY_BYTES + " bytes");
      }
      body = body.clone();
    }
  }

  private static void checkTarget(String target) {
    if (target.isEmpty() || target.length() > MAX_TARGET_LENGTH) {
      throw new IllegalArgumentException("target must be 1.." + MAX_TARGET_LENGTH + " characters");
    }
    for (int i = 0; i < target.length(); i++) {
      char c = target.charAt(i);
      if (c <= 0x20 || c >= 0x7F || c == '\\') {
        throw new IllegalArgumentException(
            "target must be URL-encoded visible ASCII (found code point " + (int) c + ")");
      }
    }
    String path = target.split("[?#]", 2)[0];
    if (target.startsWith("/") || path.split("/", 2)[0].contains(":")) {
      throw new IllegalArgumentException("target must be relative to the base URL");
    }
    for (String segment : path.split("/", -1)) {
      if (segment.equals(".") || segment.equals("..")) {
        throw new IllegalArgumentException("target must not contain . or .. segments");
      }
    }
  }

  private static Map<String, String> checkHeaders(Map<String, String> headers) {
    Set<String> seen = new TreeSet<>(String.CASE_INSENSITIVE_ORDER);
    Map<String, String> copy = new LinkedHashMap<>();
    headers.forEach(
        (name, value) -> {
          Objects.requireNonNull(name, "header name");
          Objects.requireNonNull(value, "header value");
          if (!TOKEN.matcher(name).matches() || !VALUE.matcher(value).matches()) {
            throw new IllegalArgumentException(
                "headers must have token names and visible-ASCII values without CR or LF");
          }
          if (CREDENTIALS.contains(name.toLowerCase(Locale.ROOT))) {
            throw new IllegalArgumentException(
                "credential header " + name + " is never stored; the sender adds its own");
          }
          if (!seen.add(name)) {
            throw new IllegalArgumentException("header " + name + " appears twice");
          }
          copy.put(name, value);
        });
    return Collections.unmodifiableMap(copy);
  }

  /**
   * Returns a copy of the body bytes, or {@code null}.
   *
   * @return a copy of the body bytes, or {@code null}
   */
  @Override
  public byte[] body() {
    return body == null ? null : body.clone();
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof StoredRequest r
        && method.equals(r.method)
        && target.equals(r.target)
        && headers.equals(r.headers)
        && Objects.equals(contentType, r.contentType)
        && Arrays.equals(body, r.body);
  }

  @Override
  public int hashCode() {
    return Objects.hash(method, target, headers, contentType, Arrays.hashCode(body));
  }

  /** Method, path (no query), header names and body size: never values or body bytes. */
  @Override
  public String toString() {
    return "StoredRequest["
        + method
        + " "
        + target.split("[?#]", 2)[0]
        + ", headers "
        + headers.keySet()
        + ", "
        + (body == null ? "no body" : body.length + " bytes of " + contentType)
        + "]";
  }
}
