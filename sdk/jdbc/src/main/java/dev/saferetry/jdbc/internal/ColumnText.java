package dev.saferetry.jdbc.internal;

import java.util.Objects;

/**
 * The rule for text a database column holds: it must come back exactly as it was written (the
 * core's {@code RecordText} is the rule for an intent record's text in any store). An unpaired
 * surrogate cannot be encoded as UTF-8 (a driver replaces it, so two different values could be
 * stored as one) and PostgreSQL refuses a NUL character; both are refused here, before any I/O,
 * with a message that names the value's role but never the value.
 *
 * <p>Stateless and thread-safe.
 */
public final class ColumnText {
  /** The most characters of a text {@link #printable} keeps. */
  private static final int MAX_PRINTED = 128;

  private ColumnText() {}

  /**
   * Returns text safe for one log line: every character outside printable ASCII (CR, LF, escapes,
   * bidi controls, ...) becomes {@code ?}, and at most {@value #MAX_PRINTED} characters are kept.
   */
  public static String printable(String text) {
    if (text == null) {
      return null;
    }
    int n = Math.min(text.length(), MAX_PRINTED);
    StringBuilder out = new StringBuilder(n + 3);
    for (int i = 0; i < n; i++) {
      char c = text.charAt(i);
      out.append(c >= 0x20 && c <= 0x7E ? c : '?');
    }
    return text.length() > MAX_PRINTED ? out.append("...").toString() : out.toString();
  }

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
