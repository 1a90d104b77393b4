package dev.saferetry.jdbc.inbox;

import java.util.Objects;
import java.util.OptionalInt;

/**
 * The inbox could not do its part; {@link #kind()} says how. The database failed or refused (the
 * cause is the {@link java.sql.SQLException}), or a handler threw a checked exception (the cause):
 * {@link Kind#FAILED}. Its tables cannot be used: {@link Kind#SCHEMA}. Another transaction holds
 * the message or its resource: {@link Kind#BUSY}, ask for the message again later. In all of these
 * nothing was recorded: the message is still unprocessed and its redelivery will run the handler or
 * find it recorded — except for {@link Kind#INCOMPLETE}, where a handler ended the inbox's
 * transaction itself and a person must look. The message names tables, SQL states and message ids,
 * never payloads or connection URLs.
 *
 * <p>Instances are immutable and thread-safe.
 */
public final class InboxException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  /** How the inbox could not do its part. */
  public enum Kind {
    /** The database failed or refused, or a handler threw a checked exception (the cause). */
    FAILED,
    /**
     * The inbox's tables are missing, older than this SafeRetry needs, newer than it understands,
     * or do not have the columns their recorded version promises: the same rules as the key store's
     * schema refusal ({@link dev.saferetry.idempotency.KeyStoreException#table()}), with the
     * version recorded in the same {@code saferetry_schema} table. Thrown when the inbox is built,
     * before anything is read or written; nothing is changed. The message names the table, both
     * versions and the script to run; {@link #table()}, {@link #foundVersion()} and {@link
     * #requiredVersion()} carry them.
     */
    SCHEMA,
    /**
     * Another transaction holds what the message needs: another delivery of the same message is
     * still being handled (its receipt is not committed yet), or another message about the same
     * resource holds the resource's high-water mark. The database's lock wait ran out (H2 {@code
     * LOCK_TIMEOUT}, MariaDB {@code innodb_lock_wait_timeout}, PostgreSQL {@code lock_timeout}), or
     * the wait ended in a deadlock that retrying did not settle. Nothing was recorded for this
     * delivery, and whether the other one will commit is not known yet: <b>do not acknowledge the
     * message</b>. Ask for it again later — nack it with requeue, answer a webhook {@code 503} (or
     * {@code 409}) with {@code Retry-After} — and the redelivery is either a {@link
     * InboxResult#DUPLICATE} (the other delivery committed) or runs the handler (it rolled back).
     * It is never a reason to give the message up.
     */
    BUSY,
    /**
     * A message's receipt was committed without the end of its handler's work: the handler ended
     * the inbox's transaction itself — through a connection or a statement the inbox does not see
     * (the caller's own connection in {@link Inbox#receive(java.sql.Connection, String, String,
     * InboxHandler)}, a stored procedure that commits, a statement that commits implicitly) — and
     * what it wrote before that point is committed, while the rest was rolled back. The inbox
     * cannot tell which of the handler's effects exist, so it neither runs the handler again nor
     * reports the message as a duplicate. Thrown by the delivery that found out and by every later
     * delivery of the message: <b>do not acknowledge it</b>; have a person check its effects, then
     * either delete its receipt (outcome {@code RECEIVING}) so that the next delivery runs the
     * handler again, or set that outcome to {@code APPLIED} so that it is a duplicate.
     */
    INCOMPLETE
  }

  /** How the inbox could not do its part. */
  private final Kind kind;

  /** The table, as configured, for {@link Kind#SCHEMA}; else null. */
  private final String table;

  /** The schema version recorded, or -1 when none is (or not {@link Kind#SCHEMA}). */
  private final int found;

  /** The schema version this SafeRetry needs, for {@link Kind#SCHEMA}; else 0. */
  private final int required;

  InboxException(String message, Throwable cause) {
    this(Kind.FAILED, message, cause);
  }

  InboxException(Kind kind, String message, Throwable cause) {
    this(kind, message, cause, null, -1, 0);
  }

  /** A {@link Kind#SCHEMA} refusal of {@code table}. */
  InboxException(String table, int found, int required, String message) {
    this(Kind.SCHEMA, message, null, table, found, required);
  }

  private InboxException(
      Kind kind, String message, Throwable cause, String table, int found, int required) {
    super(message, cause);
    this.kind = Objects.requireNonNull(kind, "kind");
    this.table = table;
    this.found = found;
    this.required = required;
  }

  /** {@return how the inbox could not do its part} */
  public Kind kind() {
    return kind;
  }

  /**
   * {@return the receipts table, as configured (schema-qualified when a schema was given)} Null
   * unless the kind is {@link Kind#SCHEMA}.
   */
  public String table() {
    return table;
  }

  /**
   * {@return the schema version recorded for the inbox's tables} Empty when none is recorded, or
   * the kind is not {@link Kind#SCHEMA}.
   */
  public OptionalInt foundVersion() {
    return found < 0 ? OptionalInt.empty() : OptionalInt.of(found);
  }

  /**
   * {@return the schema version this SafeRetry needs} Zero unless the kind is {@link Kind#SCHEMA}.
   */
  public int requiredVersion() {
    return required;
  }
}
