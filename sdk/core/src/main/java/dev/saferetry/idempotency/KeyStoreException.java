package dev.saferetry.idempotency;

import java.util.Objects;
import java.util.OptionalInt;

/**
 * A {@link KeyStore} could not read or durably write its data: a corrupt or truncated file, an
 * unknown format version, a missing or read-only directory, or a store already locked by another
 * process. The message names the file and, for corruption, the byte offset; it never contains
 * stored keys' payloads.
 *
 * <p>Nothing the store could not understand is dropped or rewritten: fixing the cause (or moving
 * the file aside) and reopening is always safe.
 *
 * <p><b>Schema refusals.</b> A database store whose tables are missing, older than this SafeRetry
 * needs, newer than it understands, or without the columns their recorded version promises refuses
 * them when it is built, before anything is read or written, and changes nothing: then {@link
 * #table()} names the table, and {@link #foundVersion()} and {@link #requiredVersion()} carry both
 * versions, which the message also names with the script to run.
 *
 * <p>Instances are immutable and thread-safe.
 */
public class KeyStoreException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  /** The refused table, for a schema refusal; else null. */
  private final String table;

  /** The schema version recorded, or -1 when none is (or not a schema refusal). */
  private final int found;

  /** The schema version this code needs, for a schema refusal; else 0. */
  private final int required;

  /**
   * Creates an exception with a message safe to log.
   *
   * @param message the message
   */
  public KeyStoreException(String message) {
    this(message, null);
  }

  /**
   * Creates an exception with a message safe to log and its cause.
   *
   * @param message the message
   * @param cause the cause
   */
  public KeyStoreException(String message, Throwable cause) {
    super(message, cause);
    this.table = null;
    this.found = -1;
    this.required = 0;
  }

  /**
   * Creates a schema refusal: the store's {@code table} is missing, older than this code needs,
   * newer than it understands, or lacks the columns its version promises.
   *
   * @param message the message, naming the table, both versions and what to do
   * @param table the table, as configured (schema-qualified when a schema was given)
   * @param found the schema version recorded for the table, or -1 when none is recorded
   * @param required the schema version this code needs
   */
  public KeyStoreException(String message, String table, int found, int required) {
    super(message);
    this.table = Objects.requireNonNull(table, "table");
    this.found = Math.max(found, -1);
    this.required = required;
  }

  /**
   * {@return the refused table, as configured (schema-qualified when a schema was given)} Null
   * unless this is a schema refusal.
   */
  public String table() {
    return table;
  }

  /**
   * {@return the schema version recorded for the refused table} Empty when none is recorded, or
   * this is not a schema refusal.
   */
  public OptionalInt foundVersion() {
    return found < 0 ? OptionalInt.empty() : OptionalInt.of(found);
  }

  /** {@return the schema version this code needs} Zero unless this is a schema refusal. */
  public int requiredVersion() {
    return required;
  }
}
