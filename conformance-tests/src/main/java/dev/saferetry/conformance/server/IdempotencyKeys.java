package dev.saferetry.conformance.server;

/**
 * Parses an Idempotency-Key value: a bare token (Stripe style) or a Structured Field string ({@code
 * "abc"}, the IETF draft's syntax). Both denote the same key. Thread-safe (stateless).
 */
final class IdempotencyKeys {
  static final int MAX_LENGTH = 255;

  private IdempotencyKeys() {}

  /**
   * Returns the key, or throws {@link IllegalArgumentException} with a client-safe message when it
   * is empty, longer than {@code maxLength} characters, contains control characters or is a
   * malformed quoted string.
   */
  static String parse(String raw, int maxLength) {
    String value = raw.strip();
    if (value.length() >= 2 && value.startsWith("\"") && value.endsWith("\"")) {
      value = unquote(value.substring(1, value.length() - 1));
    }
    if (value.isEmpty()) {
      throw new IllegalArgumentException("idempotency key must not be empty");
    }
    if (value.length() > maxLength) {
      throw new IllegalArgumentException("idempotency key longer than " + maxLength + " chars");
    }
    for (int i = 0; i < value.length(); i++) {
      char c = value.charAt(i);
      if (c < 0x20 || c == 0x7f) {
        throw new IllegalArgumentException("idempotency key contains control characters");
      }
    }
    return value;
  }

  private static String unquote(String inner) {
    StringBuilder out = new StringBuilder(inner.length());
    for (int i = 0; i < inner.length(); i++) {
      char c = inner.charAt(i);
      if (c == '\\') {
        if (i + 1 >= inner.length()
            || (inner.charAt(i + 1) != '"' && inner.charAt(i + 1) != '\\')) {
          throw new IllegalArgumentException("malformed structured-field string key");
        }
        c = inner.charAt(++i);
      } else if (c == '"') {
        throw new IllegalArgumentException("malformed structured-field string key");
      }
      out.append(c);
    }
    return out.toString();
  }
}
