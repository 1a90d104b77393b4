package dev.saferetry.generator;

import java.util.Locale;
import java.util.Objects;

/**
 * Where an operation's idempotency key goes when the configuration says so: a header, a body field,
 * or nowhere. Written {@code header:Name}, {@code body:field} or {@code none}, optionally with a
 * maximum length: {@code header:Idempotency-Key:64}.
 *
 * <p>Instances are immutable and thread-safe.
 *
 * @param kind {@code header}, {@code body} or {@code none}
 * @param name the header or field name; empty for none
 * @param maxLength the longest key, or 0 for no limit
 */
public record KeyOverride(String kind, String name, int maxLength) {
  /** Validates the parts. */
  public KeyOverride {
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(name, "name");
    if (!kind.equals("header") && !kind.equals("body") && !kind.equals("none")) {
      throw new IllegalArgumentException("kind must be header, body or none, was " + kind);
    }
    if (kind.equals("none") != name.isEmpty()) {
      throw new IllegalArgumentException("a header or body placement needs a name; none has none");
    }
    if (!name.isEmpty() && !name.matches("[A-Za-z0-9_.\\-]+")) {
      throw new IllegalArgumentException("key placement name must be a token, was " + name);
    }
    if (maxLength < 0) {
      throw new IllegalArgumentException("maxLength must not be negative, was " + maxLength);
    }
  }

  /** {@return no key} */
  public static KeyOverride none() {
    return new KeyOverride("none", "", 0);
  }

  /**
   * {@return a placement parsed from {@code header:Name}, {@code body:field} or {@code none}, each
   * optionally followed by {@code :maxLength}}
   *
   * @param text the text
   * @throws IllegalArgumentException if it is none of these
   */
  public static KeyOverride parse(String text) {
    String[] parts = Objects.requireNonNull(text, "text").trim().split(":", -1);
    String kind = parts[0].toLowerCase(Locale.ROOT);
    if (kind.equals("none") && parts.length == 1) {
      return none();
    }
    if (parts.length < 2 || parts.length > 3) {
      throw new IllegalArgumentException(
          "key placement must be header:Name, body:field or none (optionally :maxLength), was "
              + text);
    }
    int max = 0;
    if (parts.length == 3) {
      try {
        max = Integer.parseInt(parts[2]);
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException("key placement maxLength must be a number: " + text);
      }
    }
    return new KeyOverride(kind, parts[1], max);
  }

  /** {@return whether no key is sent} */
  public boolean isNone() {
    return kind.equals("none");
  }

  @Override
  public String toString() {
    return isNone() ? "none" : kind + ":" + name + (maxLength > 0 ? ":" + maxLength : "");
  }
}
