package dev.saferetry.conformance;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.Collection;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Credentials carried inside URLs — a target, hook or counter URL such as {@code
 * http://user:pass@host/?token=...} — found in configured values and masked wherever a URL is
 * rendered: the user info becomes {@code ***}, and so does the value of every query parameter that
 * a configured URL carries or whose name looks secret. Stateless and thread-safe.
 */
final class UrlCredentials {
  private static final Pattern URL = Pattern.compile("(?i)\\bhttps?://[^\\s\"'<>`|]+");
  private static final Pattern SECRET_NAME =
      Pattern.compile("(?i).*(key|sig|token|secret|pass|pwd|auth|credential|session|code).*");
  static final String MASK = "***";

  private UrlCredentials() {}

  /**
   * Adds the user info parts and query values of every URL in {@code value} to {@code secrets} (raw
   * and percent-decoded), and its query parameter names to {@code names}.
   */
  static void collect(String value, Collection<String> secrets, Collection<String> names) {
    Matcher m = URL.matcher(value);
    while (m.find()) {
      Parts p = Parts.of(m.group());
      if (p.userInfo != null) {
        for (String part : p.userInfo.split(":", -1)) {
          add(secrets, part);
        }
      }
      for (String pair : p.pairs()) {
        int eq = pair.indexOf('=');
        names.add(decode(eq < 0 ? pair : pair.substring(0, eq)).toLowerCase(Locale.ROOT));
        if (eq >= 0) {
          add(secrets, pair.substring(eq + 1));
        }
      }
    }
  }

  /** {@code text} with the credentials of every URL in it masked (see the class comment). */
  static String mask(String text, Set<String> names) {
    Matcher m = URL.matcher(text);
    StringBuilder out = new StringBuilder();
    while (m.find()) {
      m.appendReplacement(out, Matcher.quoteReplacement(Parts.of(m.group()).masked(names)));
    }
    m.appendTail(out);
    return out.toString();
  }

  private static void add(Collection<String> secrets, String raw) {
    if (!raw.isEmpty()) {
      secrets.add(raw);
      secrets.add(decode(raw));
    }
  }

  private static String decode(String s) {
    try {
      return URLDecoder.decode(s, StandardCharsets.UTF_8);
    } catch (IllegalArgumentException e) {
      return s;
    }
  }

  /** A URL split where its credentials live. */
  private record Parts(
      String head, String userInfo, String hostAndPath, String query, String tail) {
    static Parts of(String url) {
      int start = url.indexOf("://") + 3;
      int end = start;
      while (end < url.length() && "/?#".indexOf(url.charAt(end)) < 0) {
        end++;
      }
      String authority = url.substring(start, end);
      int at = authority.lastIndexOf('@');
      int hash = url.indexOf('#', end);
      String beforeHash = hash < 0 ? url : url.substring(0, hash);
      int q = beforeHash.indexOf('?', end);
      return new Parts(
          url.substring(0, start),
          at < 0 ? null : authority.substring(0, at),
          authority.substring(at + 1) + beforeHash.substring(end, q < 0 ? beforeHash.length() : q),
          q < 0 ? null : beforeHash.substring(q + 1),
          hash < 0 ? "" : url.substring(hash));
    }

    String[] pairs() {
      return query == null || query.isEmpty() ? new String[0] : query.split("&");
    }

    String masked(Set<String> names) {
      StringBuilder b = new StringBuilder(head);
      if (userInfo != null) {
        b.append(MASK).append('@');
      }
      b.append(hostAndPath);
      if (query != null) {
        b.append('?');
        String[] pairs = pairs();
        for (int i = 0; i < pairs.length; i++) {
          int eq = pairs[i].indexOf('=');
          String name = eq < 0 ? pairs[i] : pairs[i].substring(0, eq);
          boolean hide = eq >= 0 && secret(decode(name).toLowerCase(Locale.ROOT), names);
          b.append(i == 0 ? "" : "&").append(hide ? name + "=" + MASK : pairs[i]);
        }
      }
      return b.append(tail).toString();
    }

    private static boolean secret(String name, Set<String> names) {
      return names.contains(name) || SECRET_NAME.matcher(name).matches();
    }
  }
}
