package dev.saferetry.jdbc.internal.keystore;

import dev.saferetry.idempotency.KeyPlacement;

/**
 * How a stored request's key placement is written in the table, e.g. {@code
 * header:Idempotency-Key}, and read back. What a placement may be is the stored request's own rule,
 * checked when one is built from what is read.
 *
 * <p>Stateless and thread-safe.
 */
public final class StoredPlacement {
  /** The longest placement text: its kind, a colon and a name of at most 255 characters. */
  public static final int MAX_LENGTH = 300;

  private static final String HEADER = "header:";
  private static final String STRUCTURED = "structured-header:";
  private static final String BODY = "body-field:";

  private StoredPlacement() {}

  /** The placement as the table holds it, e.g. {@code header:Idempotency-Key}. */
  public static String encode(KeyPlacement placement) {
    String kind = placement.inBody() ? BODY : placement.structured() ? STRUCTURED : HEADER;
    return kind + placement.name();
  }

  /**
   * Reads a placement back from the table.
   *
   * @throws IllegalArgumentException if it is missing or not one {@link #encode} writes; the
   *     message never quotes it
   */
  public static KeyPlacement decode(String text) {
    if (text == null || text.length() > MAX_LENGTH) {
      throw new IllegalArgumentException("its key placement is missing or too long");
    }
    if (text.startsWith(HEADER)) {
      return KeyPlacement.header(name(text, HEADER));
    } else if (text.startsWith(STRUCTURED)) {
      return KeyPlacement.structuredHeader(name(text, STRUCTURED));
    } else if (text.startsWith(BODY)) {
      return KeyPlacement.bodyField(name(text, BODY));
    }
    throw new IllegalArgumentException("its key placement is of no known kind");
  }

  private static String name(String text, String kind) {
    String name = text.substring(kind.length());
    if (name.isBlank()) {
      throw new IllegalArgumentException("its key placement names no header or field");
    }
    return name;
  }
}
