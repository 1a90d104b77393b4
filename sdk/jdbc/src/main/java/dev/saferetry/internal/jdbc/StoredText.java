package dev.saferetry.internal.jdbc;

import java.util.Objects;

/**
 * Text that must come back from the database exactly as it was written. An unpaired surrogate
 * cannot be encoded as UTF-8 (a driver replaces it, so two different values could be stored as one)
 * and PostgreSQL refuses a NUL character; both are refused here, before any I/O, with a message
 * that names the value's role but never the value.
 *
 * <p>Stateless and thread-safe.
 */
public final class StoredText {
  private StoredText() {}

  /**
   * Checks a value stored as it is: at most {@code maxLength} characters, no NUL, no unpaired
   * surrogate. Null passes.
   *
   * @return {@code text}
   * @throws IllegalArgumentException naming {@code what}
   */
  public static String check(String what, String text, int maxLength) {
    if (text == null) {
      return null;
    }
    if (text.length() > maxLength) {
      throw new IllegalArgumentException(what + " longer than " + maxLength + " characters");
    }
    scan(what, text, true);
    return text;
  }

  /**
   * Checks an identifier that is compared exactly: 1 to {@code maxLength} characters, no control
   * character at all, no unpaired surrogate.
   *
   * @return {@code id}
   * @throws NullPointerException if {@code id} is null
   * @throws IllegalArgumentException starting with {@code what}
   */
  public static String checkId(String what, String id, int maxLength) {
    Objects.requireNonNull(id, what);
    if (id.isEmpty() || id.length() > maxLength) {
      throw new IllegalArgumentException(what + " must be 1.." + maxLength + " characters");
    }
    scan(what, id, false);
    return id;
  }

  private static void scan(String what, String text, boolean controls) {
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (c == 0) {
        throw new IllegalArgumentException(what + " contains a NUL character");
      }
      if (!controls && Character.isISOControl(c)) {
        throw new IllegalArgumentException(what + " contains a control character");
      }
      if (Character.isSurrogate(c)) {
        boolean paired =
            Character.isHighSurrogate(c)
                && i + 1 < text.length()
                && Character.isLowSurrogate(text.charAt(i + 1));
        if (!paired) {
          throw new IllegalArgumentException(what + " contains an unpaired surrogate");
        }
        i++;
      }
    }
  }
}
