package dev.saferetry;

import dev.saferetry.internal.Headers;
import java.util.Objects;

/**
 * The response header by which a provider says an answer is a replay of the first request's answer,
 * e.g. {@code Idempotent-Replayed: true}.
 *
 * <p>Instances are immutable and thread-safe.
 *
 * @param header the header name
 * @param value the value that marks a replay, compared ignoring case
 */
record ReplayMarker(String header, String value) {

  /**
   * Validates the marker.
   *
   * @param header the header name
   * @param value the value that marks a replay, compared ignoring case
   */
  public ReplayMarker {
    Headers.checkName(Objects.requireNonNull(header, "header"));
    Objects.requireNonNull(value, "value");
    if (value.isBlank()) {
      throw new IllegalArgumentException("value must not be blank");
    }
  }

  /**
   * {@return whether a header value (null when absent) marks a replay}
   *
   * @param headerValue the header value
   */
  public boolean isReplay(String headerValue) {
    return headerValue != null && headerValue.strip().equalsIgnoreCase(value);
  }
}
