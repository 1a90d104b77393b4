package dev.saferetry.internal;

/** Header-name and value checks shared by the provider descriptions. */
public final class Headers {
  private Headers() {}

  /** Throws unless {@code name} is an HTTP token (RFC 9110): no spaces, colons or controls. */
  public static void checkName(String name) {
    if (name.isEmpty()) {
      throw new IllegalArgumentException("header name must not be empty");
    }
    for (int i = 0; i < name.length(); i++) {
      char c = name.charAt(i);
      boolean token =
          (c >= 'a' && c <= 'z')
              || (c >= 'A' && c <= 'Z')
              || (c >= '0' && c <= '9')
              || "!#$%&'*+-.^_`|~".indexOf(c) >= 0;
      if (!token) {
        throw new IllegalArgumentException("'" + name + "' is not a valid header name");
      }
    }
  }

  /** Throws if a header value holds CR, LF or another control character. */
  public static void checkValue(String name, String value) {
    for (int i = 0; i < value.length(); i++) {
      char c = value.charAt(i);
      if ((c < 0x20 && c != '\t') || c == 0x7F) {
        throw new IllegalArgumentException("header " + name + " has a control character");
      }
    }
  }
}
