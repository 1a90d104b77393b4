package dev.saferetry.idempotency;

import dev.saferetry.internal.storedrequest.BodyKeys;
import dev.saferetry.internal.storedrequest.StoredHeaders;
import dev.saferetry.internal.storedrequest.StoredTargets;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;

/**
 * Everything needed to send an intent's request later, exactly as it would have been sent now: made
 * by {@code SafeRetryClient.prepare} (with the intent it belongs to), stored with the intent (the
 * JDBC outbox's {@code enqueue}), and sent later by {@code SafeRetryClient.send}.
 *
 * <p><b>The key.</b> It is the intent's, never a header here: {@code keyPlacement} records where it
 * goes, and the sender places it exactly there, whatever its own client is configured to do. For a
 * {@linkplain KeyPlacement#bodyField body field} the body already carries it (a JSON object or form
 * fields with that field exactly once, holding the key): the outbox and the sender both check this
 * against the intent's key ({@link #checkKey}), and the outbox's relay holds a row that fails.
 *
 * <p><b>Credentials are never stored</b>, because the sender adds its own: a header whose name the
 * SDK treats as a credential anywhere ({@code Authorization}, {@code Cookie}, names containing
 * "auth", "key", "token", "secret", "password" or "signature") is refused, and so are headers that
 * frame or route the request or that the SDK sets on every attempt ({@code Host}, {@code
 * Content-Length}, {@code Content-Type}, {@code Transfer-Encoding}, {@code Connection}, {@code
 * X-Request-Id}, {@code Idempotency-Key}, ...). When a client prepares one ({@code
 * SafeRetryClient.prepare}), it also refuses whatever it knows to be secret wherever the call put
 * it — its API key, its credential headers' values, credentials in its base URL's query, in another
 * header, a query parameter, the path, the body or the intent id — and leaves its default headers
 * that carry a credential out; each refusal names the header, parameter or part, never the value.
 *
 * <p><b>The target</b> is relative to the sender's base URL, its query included (the sender puts
 * its own base URL's query first), and carries no query parameter named as a credential. It stays
 * under the sender's base URL: it is judged as every server on the way might read it
 * (percent-escapes decoded any number of times, {@code ;} parameters dropped), and judged again by
 * the sender after its HTTP client's normalisation against its real base URL.
 *
 * <p>Instances are immutable and thread-safe.
 *
 * @param method the HTTP method, upper case, e.g. {@code POST}
 * @param target the path and query relative to the client's base URL, without a leading slash, e.g.
 *     {@code v1/charges?expand[]=customer}; URL-encoded visible ASCII without a backslash or
 *     fragment, no scheme, no segment that reads as {@code .} or {@code ..} or hides a slash or a
 *     control character under percent-encoding, at most {@value #MAX_TARGET_LENGTH} characters
 * @param keyPlacement where the intent's key goes: a header (neither a credential nor one the
 *     sender sets), or a top-level body field
 * @param headers identity headers to send with it (e.g. {@code Stripe-Account}), in order; names
 *     are HTTP tokens, unique ignoring case, none of the refused ones above and not the key's
 *     header; values visible ASCII, spaces and tabs
 * @param contentType the body's media type, or {@code null} when there is no body
 * @param body the exact body bytes, or {@code null}; at most {@value #MAX_BODY_BYTES} bytes
 */
public record StoredRequest(
    String method,
    String target,
    KeyPlacement keyPlacement,
    Map<String, String> headers,
    String contentType,
    byte[] body) {

  /** The longest target accepted, in characters. */
  public static final int MAX_TARGET_LENGTH = StoredTargets.MAX_LENGTH;

  /** The largest body accepted, in bytes. */
  public static final int MAX_BODY_BYTES = 1 << 20;

  private static final Pattern METHOD = Pattern.compile("[A-Z]{1,16}");
  private static final Pattern VALUE = Pattern.compile("[\\x20-\\x7E\\t]{0,4096}");

  /**
   * Validates and copies the request.
   *
   * @param method the HTTP method, upper case, e.g. {@code POST}
   * @param target the path and query relative to the client's base URL, without a leading slash,
   *     e.g. {@code v1/charges?expand[]=customer}; see the class comment
   * @param keyPlacement where the intent's key goes; a body field needs a body
   * @param headers identity headers to send with it (e.g. {@code Stripe-Account}), in order; see
   *     the class comment
   * @param contentType the body's media type, or {@code null} when there is no body
   * @param body the exact body bytes, or {@code null}; at most {@value #MAX_BODY_BYTES} bytes
   * @throws IllegalArgumentException naming the part that is not acceptable (never a header value,
   *     the target or the body)
   */
  public StoredRequest {
    Objects.requireNonNull(method, "method");
    Objects.requireNonNull(target, "target");
    Objects.requireNonNull(keyPlacement, "keyPlacement");
    Objects.requireNonNull(headers, "headers");
    if (!METHOD.matcher(method).matches()) {
      throw new IllegalArgumentException("method must be 1..16 upper-case letters");
    }
    StoredTargets.check(target);
    StoredHeaders.checkPlacement(keyPlacement.name(), keyPlacement.inBody());
    headers = checkHeaders(headers, keyPlacement);
    if (contentType != null && (contentType.isBlank() || !VALUE.matcher(contentType).matches())) {
      throw new IllegalArgumentException("contentType must be visible ASCII");
    }
    if (body != null) {
      if (body.length > MAX_BODY_BYTES) {
        throw new IllegalArgumentException("body must be at most " + MAX_BODY_BYTES + " bytes");
      }
      body = body.clone();
    }
    if (keyPlacement.inBody() && (body == null || contentType == null)) {
      throw new IllegalArgumentException("the key goes in a body field, so a body is needed");
    }
  }

  private static Map<String, String> checkHeaders(
      Map<String, String> headers, KeyPlacement placement) {
    Set<String> seen = new TreeSet<>(String.CASE_INSENSITIVE_ORDER);
    Map<String, String> copy = new LinkedHashMap<>();
    headers.forEach(
        (name, value) -> {
          Objects.requireNonNull(name, "header name");
          Objects.requireNonNull(value, "header value");
          StoredHeaders.checkName(name);
          if (!VALUE.matcher(value).matches()) {
            throw new IllegalArgumentException(
                "header " + name + " must have a visible-ASCII value without CR or LF");
          }
          if (!placement.inBody() && name.equalsIgnoreCase(placement.name())) {
            throw new IllegalArgumentException(
                "header " + name + " carries the key, which is placed from the intent's key");
          }
          if (!seen.add(name)) {
            throw new IllegalArgumentException("header " + name + " appears twice");
          }
          copy.put(name, value);
        });
    return Collections.unmodifiableMap(copy);
  }

  /**
   * Checks that this request carries {@code key} where its placement says: for a body field, that
   * the body (a JSON object or form fields) has that top-level field exactly once, holding exactly
   * the key; a header placement is always satisfied (the sender sets the header from the key).
   *
   * @param key the intent's key
   * @throws IllegalArgumentException saying what is wrong, never quoting the body or the key
   */
  public void checkKey(IdempotencyKey key) {
    Objects.requireNonNull(key, "key");
    if (keyPlacement.inBody()) {
      BodyKeys.check(keyPlacement.name(), key.value(), contentType, body);
    }
  }

  /** {@return a copy of the body bytes, or {@code null}} */
  @Override
  public byte[] body() {
    return body == null ? null : body.clone();
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof StoredRequest r
        && method.equals(r.method)
        && target.equals(r.target)
        && keyPlacement.equals(r.keyPlacement)
        && headers.equals(r.headers)
        && Objects.equals(contentType, r.contentType)
        && Arrays.equals(body, r.body);
  }

  @Override
  public int hashCode() {
    return Objects.hash(method, target, keyPlacement, headers, contentType, Arrays.hashCode(body));
  }

  /**
   * Method, path (no query), key placement, header names and body size: never values or body bytes.
   */
  @Override
  public String toString() {
    return "StoredRequest["
        + method
        + " "
        + target.split("[?#]", 2)[0]
        + ", key in "
        + keyPlacement
        + ", headers "
        + headers.keySet()
        + ", "
        + (body == null ? "no body" : body.length + " bytes of " + contentType)
        + "]";
  }
}
