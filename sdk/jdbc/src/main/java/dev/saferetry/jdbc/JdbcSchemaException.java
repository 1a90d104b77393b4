package dev.saferetry.jdbc;

import dev.saferetry.idempotency.KeyStoreException;
import java.util.OptionalInt;

/**
 * A JDBC store's tables are missing, older than this SafeRetry needs, newer than it understands, or
 * do not have the columns their recorded version promises. Thrown when the store is built, before
 * anything is read or written; nothing is changed. The message names the table and both versions
 * and says what to do.
 *
 * <p>Immutable and thread-safe.
 */
public final class JdbcSchemaException extends KeyStoreException {
  private static final long serialVersionUID = 1L;

  /** The table, as configured. */
  private final String table;

  /** The schema version recorded, or -1 when none is. */
  private final int found;

  /** The schema version this SafeRetry needs. */
  private final int required;

  JdbcSchemaException(String table, int found, int required, String message) {
    super(message);
    this.table = table;
    this.found = found;
    this.required = required;
  }

  /**
   * The table, as configured (schema-qualified when a schema was given).
   *
   * @return the table, as configured (schema-qualified when a schema was given)
   */
  public String table() {
    return table;
  }

  /**
   * The schema version recorded for the table, or empty when none is recorded.
   *
   * @return the schema version recorded for the table, or empty when none is recorded
   */
  public OptionalInt foundVersion() {
    return found < 0 ? OptionalInt.empty() : OptionalInt.of(found);
  }

  /**
   * The schema version this SafeRetry needs.
   *
   * @return the schema version this SafeRetry needs
   */
  public int requiredVersion() {
    return required;
  }
}
