package dev.saferetry.internal.codec;

/**
 * Percent-encoding of text as UTF-8, in the three flavours the request model needs.
 *
 * <p>Form and query components keep only {@code A-Z a-z 0-9 - . _ *} (the set browsers and {@code
 * URLEncoder} keep), so every byte that could end a name, a value or a pair ({@code = & + ; #}) is
 * escaped. Path segments keep the RFC 3986 unreserved set ({@code A-Z a-z 0-9 - . _ ~}) and escape
 * everything else, {@code /} included, so a value can never become two segments. Text that cannot
 * be encoded as UTF-8 exactly (an unpaired surrogate) is refused rather than replaced, so two
 * different values can never become the same bytes.
 */
public final class Percent {
  private static final char[] HEX = "0123456789ABCDEF".toCharArray();

  /** How a space is written. */
  public enum Space {
    /** {@code +}, as HTML forms and Stripe's client libraries send it. */
    PLUS,
    /** {@code %20}, which every decoder reads as a space. */
    PERCENT
  }

  private Percent() {}

  /**
   * Appends {@code text} as a form or query component.
   *
   * @param keepBrackets whether {@code [} and {@code ]} stay literal (the structure of a bracketed
   *     name); everywhere else they are escaped
   * @param what names the text in the error message; the text itself is never echoed
   * @throws IllegalArgumentException if the text contains an unpaired surrogate
   */
  public static void component(
      StringBuilder out, String text, Space space, boolean keepBrackets, String what) {
    int n = text.length();
    for (int i = 0; i < n; i++) {
      char c = text.charAt(i);
      if (isFormSafe(c) || (keepBrackets && (c == '[' || c == ']'))) {
        out.append(c);
      } else if (c == ' ') {
        out.append(space == Space.PLUS ? "+" : "%20");
      } else {
        i = escape(out, text, i, what);
      }
    }
  }

  /**
   * Appends {@code text} as one path segment: everything outside the unreserved set is escaped.
   *
   * @throws IllegalArgumentException if the text contains an unpaired surrogate
   */
  public static void segment(StringBuilder out, String text, String what) {
    int n = text.length();
    for (int i = 0; i < n; i++) {
      char c = text.charAt(i);
      if (isAlphanumeric(c) || c == '-' || c == '.' || c == '_' || c == '~') {
        out.append(c);
      } else {
        i = escape(out, text, i, what);
      }
    }
  }

  /** Throws if {@code text} holds an unpaired surrogate; never echoes the text. */
  public static void requireWellFormed(String text, String what) {
    int n = text.length();
    for (int i = 0; i < n; i++) {
      char c = text.charAt(i);
      if (Character.isSurrogate(c)) {
        if (!Character.isHighSurrogate(c)
            || i + 1 >= n
            || !Character.isLowSurrogate(text.charAt(i + 1))) {
          throw unpaired(what, i);
        }
        i++;
      }
    }
  }

  private static boolean isAlphanumeric(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
  }

  private static boolean isFormSafe(char c) {
    return isAlphanumeric(c) || c == '-' || c == '.' || c == '_' || c == '*';
  }

  // Escapes the code point at i as UTF-8; returns the index of its last char.
  private static int escape(StringBuilder out, String text, int i, String what) {
    char c = text.charAt(i);
    int cp = c;
    int last = i;
    if (Character.isSurrogate(c)) {
      if (!Character.isHighSurrogate(c)
          || i + 1 >= text.length()
          || !Character.isLowSurrogate(text.charAt(i + 1))) {
        throw unpaired(what, i);
      }
      cp = Character.toCodePoint(c, text.charAt(i + 1));
      last = i + 1;
    }
    if (cp < 0x80) {
      hex(out, cp);
    } else if (cp < 0x800) {
      hex(out, 0xC0 | (cp >> 6));
      hex(out, 0x80 | (cp & 0x3F));
    } else if (cp < 0x10000) {
      hex(out, 0xE0 | (cp >> 12));
      hex(out, 0x80 | ((cp >> 6) & 0x3F));
      hex(out, 0x80 | (cp & 0x3F));
    } else {
      hex(out, 0xF0 | (cp >> 18));
      hex(out, 0x80 | ((cp >> 12) & 0x3F));
      hex(out, 0x80 | ((cp >> 6) & 0x3F));
      hex(out, 0x80 | (cp & 0x3F));
    }
    return last;
  }

  private static void hex(StringBuilder out, int b) {
    out.append('%').append(HEX[(b >> 4) & 0xF]).append(HEX[b & 0xF]);
  }

  private static IllegalArgumentException unpaired(String what, int index) {
    return new IllegalArgumentException(
        what
            + " contains an unpaired surrogate at index "
            + index
            + "; it cannot be sent as UTF-8");
  }
}
