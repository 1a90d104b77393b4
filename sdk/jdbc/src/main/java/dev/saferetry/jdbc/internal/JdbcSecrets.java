package dev.saferetry.jdbc.internal;

import java.lang.reflect.Constructor;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.sql.SQLException;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.LinkedHashSet;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Keeps the credentials of connection URLs out of every exception the JDBC components throw or
 * carry as a cause. Drivers put the URL they were given into their messages ({@code
 * DriverManager}'s "No suitable driver found for jdbc:...&password=..."), so a cause chain is
 * copied with its messages masked before it is attached: a password in a URL's user info or in a
 * parameter named like a secret becomes {@code ***}, and so does every value a URL given to the
 * component held in such a place, wherever it appears. A chain with nothing to mask is kept as it
 * is, with its types. Stateless and thread-safe.
 */
public final class JdbcSecrets {
  private static final String MASK = "***";
  private static final Pattern USER_INFO = Pattern.compile("(//[^/@\\s:?#;]*:)([^@/\\s]+)(@)");
  private static final Pattern SECRET_PARAMETER =
      Pattern.compile(
          "(?i)((?:^|[?&;(,\\s])[a-z0-9_.-]*"
              + "(?:password|passwd|pwd|secret|token|credential|apikey|api_key|accesskey)"
              + "[a-z0-9_.-]*\\s*=\\s*)([^&;)\\s,'\"]+)");
  private static final int MAX_DEPTH = 16;

  private JdbcSecrets() {}

  /**
   * The secret values a connection URL holds: its user info's password and every parameter named
   * like a secret, raw and percent-decoded.
   */
  public static Set<String> of(String url) {
    Set<String> secrets = new LinkedHashSet<>();
    collect(USER_INFO.matcher(url), 2, secrets);
    collect(SECRET_PARAMETER.matcher(url), 2, secrets);
    return Set.copyOf(secrets);
  }

  private static void collect(Matcher m, int group, Set<String> into) {
    while (m.find()) {
      String value = m.group(group);
      into.add(value);
      try {
        into.add(URLDecoder.decode(value, StandardCharsets.UTF_8));
      } catch (IllegalArgumentException e) {
        // not percent-encoded: the raw value is enough
      }
    }
  }

  /** {@code text} with URL credentials and the {@code known} secret values masked. */
  public static String mask(String text, Set<String> known) {
    if (text == null) {
      return null;
    }
    String out = text;
    for (String secret : known) {
      if (!secret.isEmpty()) {
        out = out.replace(secret, MASK);
      }
    }
    out = USER_INFO.matcher(out).replaceAll("$1" + MASK + "$3");
    return SECRET_PARAMETER.matcher(out).replaceAll("$1" + MASK);
  }

  /** {@link #scrub(SQLException, Set)} with no known values: URL shapes only. */
  public static SQLException scrub(SQLException e) {
    return scrub(e, Set.of());
  }

  /**
   * {@code e} itself when no message in its chain (causes, suppressed and next exceptions) holds a
   * credential; otherwise a copy of the chain with every message masked, each exception keeping its
   * stack trace, SQL state and error code. A JDK type is copied as that type; a driver's own type
   * becomes an {@link SQLException} whose message starts with the original class's name.
   */
  public static SQLException scrub(SQLException e, Set<String> known) {
    if (e == null || clean(e, known, Collections.newSetFromMap(new IdentityHashMap<>()), 0)) {
      return e;
    }
    return (SQLException) copy(e, known, 0);
  }

  private static boolean clean(Throwable t, Set<String> known, Set<Throwable> seen, int depth) {
    if (t == null || depth > MAX_DEPTH || !seen.add(t)) {
      return true;
    }
    String message = t.getMessage();
    if (message != null && !message.equals(mask(message, known))) {
      return false;
    }
    for (Throwable s : t.getSuppressed()) {
      if (!clean(s, known, seen, depth + 1)) {
        return false;
      }
    }
    SQLException next = t instanceof SQLException sql ? sql.getNextException() : null;
    return clean(t.getCause(), known, seen, depth + 1) && clean(next, known, seen, depth + 1);
  }

  private static Throwable copy(Throwable t, Set<String> known, int depth) {
    String message = mask(t.getMessage(), known);
    SQLException copy =
        t instanceof SQLException sql ? sameType(sql, message) : renamed(t, message, null, 0);
    copy.setStackTrace(t.getStackTrace());
    if (depth < MAX_DEPTH) {
      if (t.getCause() != null && t.getCause() != t) {
        copy.initCause(copy(t.getCause(), known, depth + 1));
      }
      for (Throwable s : t.getSuppressed()) {
        copy.addSuppressed(copy(s, known, depth + 1));
      }
      if (t instanceof SQLException sql && sql.getNextException() != null) {
        copy.setNextException((SQLException) copy(sql.getNextException(), known, depth + 1));
      }
    }
    return copy;
  }

  private static SQLException sameType(SQLException e, String message) {
    if (e.getClass().getName().startsWith("java.sql.")) {
      try {
        Constructor<? extends SQLException> c =
            e.getClass().getConstructor(String.class, String.class, int.class);
        return c.newInstance(message, e.getSQLState(), e.getErrorCode());
      } catch (ReflectiveOperationException | RuntimeException ignored) {
        // fall through to a plain SQLException that names the type
      }
    }
    return renamed(e, message, e.getSQLState(), e.getErrorCode());
  }

  private static SQLException renamed(Throwable t, String message, String state, int code) {
    String text = t.getClass().getName() + (message == null ? "" : ": " + message);
    return new SQLException(text, state, code);
  }
}
