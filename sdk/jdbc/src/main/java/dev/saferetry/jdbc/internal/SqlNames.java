package dev.saferetry.jdbc.internal;

import java.util.Objects;
import java.util.regex.Pattern;

/**
 * Table and schema names a user configures. They are spliced into SQL text (a name cannot be a
 * statement parameter), so they are checked against a strict pattern instead of being quoted: a
 * letter or underscore, then letters, digits and underscores, at most {@value #MAX_LENGTH}
 * characters (room for the index suffixes within every database's 63-character limit). Nothing else
 * can reach the SQL text, so nothing can inject SQL through a name.
 *
 * <p>Names are used unquoted, so each database applies its usual case rule (PostgreSQL folds to
 * lower case, H2 to upper case).
 *
 * <p>Stateless and thread-safe.
 */
public final class SqlNames {
  /** The table that records each component's schema version, beside its tables. */
  public static final String VERSIONS_TABLE = "saferetry_schema";

  /** The longest name accepted. */
  public static final int MAX_LENGTH = 48;

  private static final Pattern NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_]{0,47}");

  private SqlNames() {}

  /**
   * Checks a table or schema name.
   *
   * @param what the setting's name, for the message (e.g. {@code "table"})
   * @throws IllegalArgumentException naming the setting if the name is not acceptable
   */
  public static String check(String what, String name) {
    Objects.requireNonNull(name, what);
    if (!NAME.matcher(name).matches()) {
      throw new IllegalArgumentException(
          what
              + " must be a plain SQL name: a letter or underscore, then letters, digits or"
              + " underscores, at most "
              + MAX_LENGTH
              + " characters");
    }
    return name;
  }

  /** Returns {@code schema.name}, or {@code name} when the schema is null. */
  public static String qualify(String schema, String name) {
    return schema == null ? name : schema + "." + name;
  }
}
