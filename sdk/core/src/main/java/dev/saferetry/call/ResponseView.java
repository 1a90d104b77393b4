package dev.saferetry.call;

import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The HTTP answer a call ended with: status, headers, the server's request id, whether the server
 * replayed a stored answer, and — when {@linkplain dev.saferetry.RequestOptions#withKeepBody asked
 * for} — the raw body bytes. On every {@link dev.saferetry.CallResult} and on every {@link
 * dev.saferetry.error.SafeRetryException} whose call got an answer.
 *
 * <p>Instances are immutable and thread-safe.
 */
public final class ResponseView {
  private final int status;
  private final Map<String, List<String>> headers;
  private final String serverRequestId;
  private final boolean replayed;
  private final byte[] body;

  /**
   * Creates a view.
   *
   * @param status the HTTP status
   * @param headers the response headers (copied; names matched ignoring case)
   * @param serverRequestId the server's request id, or null
   * @param replayed whether the server marked the answer as a replay
   * @param body the raw body bytes (copied), or null when not kept
   */
  public ResponseView(
      int status,
      Map<String, List<String>> headers,
      String serverRequestId,
      boolean replayed,
      byte[] body) {
    if (status < 100 || status > 599) {
      throw new IllegalArgumentException("status out of range: " + status);
    }
    this.status = status;
    Map<String, List<String>> copy = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
    Objects.requireNonNull(headers, "headers").forEach((k, v) -> copy.put(k, List.copyOf(v)));
    this.headers = Collections.unmodifiableMap(copy);
    this.serverRequestId = serverRequestId;
    this.replayed = replayed;
    this.body = body == null ? null : body.clone();
  }

  /** {@return the HTTP status} */
  public int status() {
    return status;
  }

  /**
   * {@return every response header; names are matched ignoring case} A credential of the call that
   * the server echoes in a name or value is shown as {@code [redacted]}.
   */
  public Map<String, List<String>> headers() {
    return headers;
  }

  /**
   * {@return the first value of a header, or empty}
   *
   * @param name the header name, any case
   */
  public Optional<String> header(String name) {
    List<String> values = headers.get(Objects.requireNonNull(name, "name"));
    return values == null || values.isEmpty() ? Optional.empty() : Optional.of(values.get(0));
  }

  /**
   * {@return the server's request id (from the provider's request id header, e.g. {@code
   * Request-Id}), or null}
   */
  public String serverRequestId() {
    return serverRequestId;
  }

  /**
   * {@return whether the server marked the answer as a replay of a stored one (e.g. {@code
   * Idempotent-Replayed: true})}
   */
  public boolean replayed() {
    return replayed;
  }

  /**
   * {@return a copy of the raw body bytes, when the call {@linkplain
   * dev.saferetry.RequestOptions#withKeepBody asked for them}: at most the client's response limit
   * for a 2xx answer, 64 KiB for an error answer} Not logged by the SDK. A credential of the call
   * that the server echoes (the API key or a credential header, whole or any 8 of its characters in
   * a row) is replaced by the bytes of {@code [redacted]}, as in every other text the SDK hands
   * out; every other byte is as received.
   */
  public Optional<byte[]> body() {
    return body == null ? Optional.empty() : Optional.of(body.clone());
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof ResponseView v
        && v.status == status
        && v.replayed == replayed
        && v.headers.equals(headers)
        && Objects.equals(v.serverRequestId, serverRequestId)
        && Arrays.equals(v.body, body);
  }

  @Override
  public int hashCode() {
    return Objects.hash(status, serverRequestId, replayed);
  }

  /** Prints the status, request id and replay flag: never headers or body. */
  @Override
  public String toString() {
    return "ResponseView["
        + status
        + ", request id "
        + serverRequestId
        + ", replayed="
        + replayed
        + "]";
  }
}
