package dev.saferetry;

import dev.saferetry.internal.Headers;
import java.util.Objects;

/**
 * How the API key travels: {@code Authorization: Bearer <key>} (Stripe, PayPal's access token,
 * Square, GoCardless) or the bare key in a header of its own (Adyen's {@code X-API-Key}). The key
 * itself is never part of a preset and never shown by {@link #toString()}.
 *
 * <p>Instances are immutable and thread-safe.
 */
public final class ApiKeyStyle {
  private static final ApiKeyStyle BEARER = new ApiKeyStyle("Authorization", true);

  private final String header;
  private final boolean bearer;

  private ApiKeyStyle(String header, boolean bearer) {
    this.header = header;
    this.bearer = bearer;
  }

  /** {@return {@code Authorization: Bearer <key>}} */
  public static ApiKeyStyle bearer() {
    return BEARER;
  }

  /**
   * {@return the bare key in the named header, e.g. {@code X-API-Key}}
   *
   * @param name the name
   */
  public static ApiKeyStyle header(String name) {
    Headers.checkName(Objects.requireNonNull(name, "name"));
    return new ApiKeyStyle(name, false);
  }

  /** {@return the header name} */
  public String headerName() {
    return header;
  }

  /**
   * {@return the header value for {@code key}}
   *
   * @param key the key
   */
  public String headerValue(String key) {
    Objects.requireNonNull(key, "key");
    Headers.checkValue(header, key);
    return bearer ? "Bearer " + key : key;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof ApiKeyStyle s && s.header.equals(header) && s.bearer == bearer;
  }

  @Override
  public int hashCode() {
    return header.hashCode() * 31 + Boolean.hashCode(bearer);
  }

  @Override
  public String toString() {
    return bearer ? "Authorization: Bearer <key>" : header + ": <key>";
  }
}
