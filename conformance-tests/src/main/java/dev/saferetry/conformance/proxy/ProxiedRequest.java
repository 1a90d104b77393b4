package dev.saferetry.conformance.proxy;

import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A request as the {@link FaultProxy} received it, for a plan to decide on.
 *
 * <p>Immutable in practice (the body array is shared, not copied); thread-safe.
 *
 * @param method the method, e.g. {@code POST}
 * @param target the request target: path and query, e.g. {@code /v1/charges?expand=x}
 * @param headers the headers in order, as name and value pairs
 * @param body the body bytes (possibly empty); not copied, do not change it
 */
public record ProxiedRequest(
    String method, String target, List<Map.Entry<String, String>> headers, byte[] body) {
  /**
   * Creates a request, copying the header list.
   *
   * @param method the method, e.g. {@code POST}
   * @param target the request target: path and query, e.g. {@code /v1/charges?expand=x}
   * @param headers the headers in order, as name and value pairs
   * @param body the body bytes (possibly empty); not copied
   */
  public ProxiedRequest {
    headers = List.copyOf(headers);
  }

  /**
   * {@return the first value of the header, or null when the request has none}
   *
   * @param name the header name, matched ignoring case
   */
  public String header(String name) {
    String lower = name.toLowerCase(Locale.ROOT);
    return headers.stream()
        .filter(h -> h.getKey().toLowerCase(Locale.ROOT).equals(lower))
        .map(Map.Entry::getValue)
        .findFirst()
        .orElse(null);
  }
}
