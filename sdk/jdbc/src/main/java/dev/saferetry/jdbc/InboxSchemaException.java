package dev.saferetry.jdbc;

import java.util.OptionalInt;

/**
 * The inbox's tables are missing, older than this SafeRetry needs, newer than it understands, or do
 * not have the columns their recorded version promises: the same rules as the key store's {@link
 * JdbcSchemaException}, with the version recorded in the same {@code saferetry_schema} table.
 * Thrown when the inbox is built, before anything is read or written; nothing is changed. The
 * message names the table, both versions and the script to run.
 *
 * <p>Instances are immutable and thread-safe.
 */
public final class InboxSchemaException extends InboxException {
  private static final long serialVersionUID = 1L;

  /** The table, as configured. */
  private final String table;

  /** The schema version recorded, or -1 when none is. */
  private final int found;

  /** The schema version this SafeRetry needs. */
  private final int required;

  InboxSchemaException(String table, int found, int required, String message) {
    super(message, null);
    this.table = table;
    this.found = found;
    this.required = required;
  }

  /**
   * The receipts table, as configured (schema-qualified when a schema was given).
   *
   * @return the receipts table, as configured (schema-qualified when a schema was given)
   */
  public String table() {
    return table;
  }

  /**
   * The schema version recorded for the inbox's tables, or empty when none is recorded.
   *
   * @return the schema version recorded for the inbox's tables, or empty when none is recorded
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
