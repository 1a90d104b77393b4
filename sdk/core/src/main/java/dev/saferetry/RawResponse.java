package dev.saferetry;

import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * The HTTP answer to one attempt, as the retry decision sees it. Immutable.
 *
 * @param status the HTTP status code
 * @param headers the response headers; names are matched case-insensitively by {@link #header}
 * @param errorBody the body of a non-2xx answer as text (at most 64 KiB), or {@code ""}; for a 2xx
 *     answer always {@code ""}
 */
record RawResponse(int status, Map<String, List<String>> headers, String errorBody) {

  /**
   * Validates and copies.
   *
   * @param status the HTTP status code
   * @param headers the response headers; names are matched case-insensitively by {@link #header}
   * @param errorBody the body of a non-2xx answer as text (at most 64 KiB), or {@code ""}; for a
   *     2xx answer always {@code ""}
   */
  RawResponse {
    if (status < 100 || status > 599) {
      throw new IllegalArgumentException("status out of range: " + status);
    }
    Map<String, List<String>> copy = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
    Objects.requireNonNull(headers, "headers").forEach((k, v) -> copy.put(k, List.copyOf(v)));
    headers = java.util.Collections.unmodifiableMap(copy);
    errorBody = Objects.requireNonNullElse(errorBody, "");
  }

  /**
   * {@return the first value of a header, or {@code null} when absent}
   *
   * @param name the name
   */
  String header(String name) {
    List<String> values = headers.get(name.toLowerCase(Locale.ROOT));
    return values == null || values.isEmpty() ? null : values.get(0);
  }

  /** {@return whether the status is 2xx} */
  boolean isSuccessful() {
    return status >= 200 && status < 300;
  }
}
