package dev.saferetry.conformance;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Keeps credentials out of every output: header values whose name looks secret become {@code ***},
 * and so does every configured secret value wherever it appears (URLs, bodies echoed by a server),
 * and every credential a URL carries (user info, query values: see {@link UrlCredentials}) — the
 * target's, a hook's or a counter's — wherever a URL is rendered. Long texts are cut and control
 * characters replaced, so a report stays readable whatever a server answers. Immutable and
 * thread-safe.
 */
final class Redaction {
  static final int MAX_TEXT = 600;
  private final List<String> secrets;
  private final Set<String> queryNames;

  Redaction(SuiteConfig config) {
    this(config.all());
  }

  /** Redaction of raw settings (e.g. command-line overrides that did not resolve). */
  Redaction(Map<String, String> settings) {
    List<String> values = new ArrayList<>();
    Set<String> names = new HashSet<>();
    settings.forEach(
        (key, value) -> {
          if (value == null || value.isBlank()) {
            return;
          }
          UrlCredentials.collect(value, values, names);
          if (isSecret(key)) {
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
    this.secrets = List.copyOf(new LinkedHashSet<>(values));
    this.queryNames = Set.copyOf(names);
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

  /**
   * {@code text} with URL credentials masked and every configured secret replaced, cut to {@link
   * #MAX_TEXT} characters.
   */
  String text(String text) {
    return text(text, MAX_TEXT);
  }

  /** A URL or a setting's value with its credentials masked, cut only when absurdly long. */
  String url(String url) {
    return url == null ? null : text(url, 4000);
  }

  String text(String text, int max) {
    if (text == null) {
      return "";
    }
    String out = UrlCredentials.mask(text, queryNames);
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
