package dev.saferetry.jdbc;

/**
 * The inbox could not do its part: the database failed or refused (the cause is the {@link
 * java.sql.SQLException}), its tables cannot be used ({@link InboxSchemaException}), another
 * transaction holds the message or its resource ({@link InboxBusyException}: ask for the message
 * again later), or a handler threw a checked exception (the cause). Nothing was recorded: the
 * message is still unprocessed and its redelivery will run the handler or find it recorded — except
 * for {@link InboxIncompleteException}, where a handler ended the inbox's transaction itself and a
 * person must look. The message names tables, SQL states and message ids, never payloads or
 * connection URLs.
 *
 * <p>Instances are immutable and thread-safe.
 */
public sealed class InboxException extends RuntimeException
    permits InboxSchemaException, InboxBusyException, InboxIncompleteException {
  private static final long serialVersionUID = 1L;

  InboxException(String message, Throwable cause) {
    super(message, cause);
  }
}
