package dev.saferetry.conformance;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;

/**
 * Keeps credentials out of every output: header values whose name looks secret become {@code ***},
 * and so does every configured secret value wherever it appears (URLs, bodies echoed by a server).
 * Long texts are cut and control characters replaced, so a report stays readable whatever a server
 * answers. Immutable and thread-safe.
 */
final class Redaction {
  static final int MAX_TEXT = 600;
  private final List<String> secrets;

  Redaction(SuiteConfig config) {
    List<String> values = new ArrayList<>();
    config
        .all()
        .forEach(
            (key, value) -> {
              if (isSecret(key) && value != null && !value.isBlank()) {
                values.add(value.strip());
                int space = value.strip().indexOf(' ');
                if (space > 0) {
                  values.add(value.strip().substring(space + 1).strip()); // "Bearer <token>"
                }
                if (value.strip().startsWith("whsec_")) {
                  values.add(value.strip().substring(6)); // a webhook secret's key, echoed bare
                }
              }
            });
    values.removeIf(v -> v.length() < 4);
    values.sort(Comparator.comparingInt(String::length).reversed());
    this.secrets = List.copyOf(values);
  }

  /** Whether a configuration key or header name names a secret. */
  static boolean isSecret(String key) {
    String k = key.toLowerCase(Locale.ROOT);
    return k.contains("authorization")
        || k.contains("cookie")
        || k.contains("token")
        || k.contains("secret")
        || k.contains("password")
        || k.contains("signature")
        || k.contains("api-key")
        || k.contains("apikey");
  }

  /** A header line with its value hidden when the name looks secret. */
  String header(String name, String value) {
    return name + ": " + (isSecret(name) ? "***" : text(value, 200));
  }

  /** {@code text} with every configured secret replaced, cut to {@link #MAX_TEXT} characters. */
  String text(String text) {
    return text(text, MAX_TEXT);
  }

  String text(String text, int max) {
    if (text == null) {
      return "";
    }
    String out = text;
    for (String secret : secrets) {
      out = out.replace(secret, "***");
    }
    return cut(out, max);
  }

  static String cut(String text, int max) {
    StringBuilder b = new StringBuilder(Math.min(text.length(), max + 40));
    int i = 0;
    for (; i < text.length() && b.length() < max; i++) {
      char c = text.charAt(i);
      boolean control = (c < 0x20 && c != '\n' && c != '\t') || c == 0x7f;
      b.append(control || Character.isSurrogate(c) && !validPair(text, i) ? '?' : c);
    }
    if (b.length() > 0 && Character.isHighSurrogate(b.charAt(b.length() - 1))) {
      b.setCharAt(b.length() - 1, '?'); // never end on half a pair
    }
    if (i < text.length()) {
      b.append("… (").append(text.length() - i).append(" more characters)");
    }
    return b.toString();
  }

  private static boolean validPair(String s, int i) {
    char c = s.charAt(i);
    return Character.isHighSurrogate(c)
        ? i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1))
        : i > 0 && Character.isHighSurrogate(s.charAt(i - 1));
  }
}
