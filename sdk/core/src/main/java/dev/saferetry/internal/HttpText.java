package dev.saferetry.internal;

import java.util.Objects;

/**
 * Checks of the text the SDK puts in a request's head: header names and values as HTTP/1.1 and
 * OkHttp require them, and HTTP tokens. Messages name the header and never contain a value.
 * Stateless.
 */
public final class HttpText {
  private HttpText() {}

  /**
   * Checks a header name as HTTP/1.1 and OkHttp require it: 1 or more visible ASCII characters, no
   * {@code :}.
   */
  public static void headerName(String what, String name) {
    if (name.isEmpty()) {
      throw new IllegalArgumentException(what + " must not be empty");
    }
    for (int i = 0; i < name.length(); i++) {
      char c = name.charAt(i);
      if (c < 0x21 || c > 0x7E || c == ':') {
        throw new IllegalArgumentException(
            what + " has a character outside visible ASCII (or ':') at index " + i);
      }
    }
  }

  /**
   * Checks a header value: tab and printable ASCII only, so that it can be sent as it is (no CR or
   * LF to split the header, no text OkHttp would refuse). The message never contains the value.
   */
  public static void headerValue(String name, String value) {
    for (int i = 0; i < value.length(); i++) {
      char c = value.charAt(i);
      if (c != '\t' && (c < 0x20 || c > 0x7E)) {
        throw new IllegalArgumentException(
            "value of header "
                + name
                + " has a character other than tab or printable ASCII at index "
                + i
                + " (CR, LF and non-ASCII text cannot be sent)");
      }
    }
  }

  /** Returns {@code value} if it is a non-empty HTTP token, else throws naming {@code what}. */
  public static String token(String what, String value) {
    Objects.requireNonNull(value, what);
    if (value.isEmpty()
        || !value
            .chars()
            .allMatch(
                c ->
                    Character.isLetterOrDigit(c) && c < 0x80
                        || "!#$%&'*+-.^_`|~".indexOf(c) >= 0)) {
      throw new IllegalArgumentException(what + " must be a non-empty HTTP token");
    }
    return value;
  }
}
