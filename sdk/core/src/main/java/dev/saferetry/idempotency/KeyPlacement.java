package dev.saferetry.idempotency;

import java.util.Objects;

/**
 * Where an attempt carries its idempotency key.
 *
 * <ul>
 *   <li>{@link #header()} — {@code Idempotency-Key: <key>}, the bare key. What Stripe and most
 *       servers accept. The default.
 *   <li>{@link #header(String)} — another header name, e.g. PayPal's {@code PayPal-Request-Id}.
 *   <li>{@link #structuredHeader(String)} — the value as a quoted Structured Field string ({@code
 *       Idempotency-Key: "<key>"}), the syntax of the IETF httpapi draft.
 *   <li>{@link #bodyField(String)} — a top-level field of the JSON body, e.g. Square's {@code
 *       idempotency_key} or AWS's {@code ClientToken}. The request must serialise to a JSON object.
 * </ul>
 *
 * <p>Instances are immutable and thread-safe.
 */
public final class KeyPlacement {
  private static final KeyPlacement DEFAULT = new KeyPlacement("Idempotency-Key", false, false);

  private final String name;
  private final boolean inBody;
  private final boolean structured;

  private KeyPlacement(String name, boolean inBody, boolean structured) {
    this.name = Objects.requireNonNull(name, "name");
    if (name.isBlank()) {
      throw new IllegalArgumentException("name must not be blank");
    }
    this.inBody = inBody;
    this.structured = structured;
  }

  /** {@return the default: the bare key in the {@code Idempotency-Key} header} */
  public static KeyPlacement header() {
    return DEFAULT;
  }

  /**
   * {@return placement of the bare key in the named header}
   *
   * @param headerName the header name
   */
  public static KeyPlacement header(String headerName) {
    return new KeyPlacement(headerName, false, false);
  }

  /**
   * {@return placement in the named header as a quoted Structured Field string}
   *
   * @param headerName the header name
   */
  public static KeyPlacement structuredHeader(String headerName) {
    return new KeyPlacement(headerName, false, true);
  }

  /**
   * {@return placement in the named top-level field of the JSON request body}
   *
   * @param fieldName the field name
   */
  public static KeyPlacement bodyField(String fieldName) {
    return new KeyPlacement(fieldName, true, false);
  }

  /** {@return the header or field name} */
  public String name() {
    return name;
  }

  /** {@return whether the key goes into the JSON body instead of a header} */
  public boolean inBody() {
    return inBody;
  }

  /**
   * {@return whether a header carries the key as a quoted Structured Field string rather than bare
   * ({@link #structuredHeader(String)}); false for a body field}
   */
  public boolean structured() {
    return structured;
  }

  /**
   * {@return the header value for a key: bare, or quoted as a Structured Field string}
   *
   * @param key the key
   */
  public String headerValue(IdempotencyKey key) {
    if (!structured) {
      return key.value();
    }
    // Keys are visible ASCII, so only '\' and '"' need escaping (RFC 8941, sf-string).
    String escaped = key.value().replace("\\", "\\\\").replace("\"", "\\\"");
    return '"' + escaped + '"';
  }

  /** Equal when both place the key the same way under the same name (compared exactly). */
  @Override
  public boolean equals(Object o) {
    return o instanceof KeyPlacement p
        && p.name.equals(name)
        && p.inBody == inBody
        && p.structured == structured;
  }

  @Override
  public int hashCode() {
    return (name.hashCode() * 31 + Boolean.hashCode(inBody)) * 31 + Boolean.hashCode(structured);
  }

  @Override
  public String toString() {
    return (inBody ? "body field " : structured ? "structured header " : "header ") + name;
  }
}
