package dev.saferetry.conformance.proxy;

import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A request as the {@link FaultProxy} received it, for a plan to decide on.
 *
 * @param method the method, e.g. {@code POST}
 * @param target the request target: path and query, e.g. {@code /v1/charges?expand=x}
 * @param headers the headers in order, as name and value pairs
 * @param body the body bytes (possibly empty); not copied, do not change it
 *     <p>Immutable in practice; thread-safe.
 */
public record ProxiedRequest(
    String method, String target, List<Map.Entry<String, String>> headers, byte[] body) {
  /** Copies the header list. */
  public ProxiedRequest {
    headers = List.copyOf(headers);
  }

  /** Returns the first value of header {@code name} (any case), or null. */
  public String header(String name) {
    String lower = name.toLowerCase(Locale.ROOT);
    return headers.stream()
        .filter(h -> h.getKey().toLowerCase(Locale.ROOT).equals(lower))
        .map(Map.Entry::getValue)
        .findFirst()
        .orElse(null);
  }
}
