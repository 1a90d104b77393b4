package dev.saferetry.jdbc;

/**
 * A message's receipt was committed without the end of its handler's work: the handler ended the
 * inbox's transaction itself — through a connection or a statement the inbox does not see (the
 * caller's own connection in {@link Inbox#receive(java.sql.Connection, String, String,
 * InboxHandler)}, a stored procedure that commits, a statement that commits implicitly) — and what
 * it wrote before that point is committed, while the rest was rolled back.
 *
 * <p>The inbox cannot tell which of the handler's effects exist, so it neither runs the handler
 * again (it would repeat the committed part) nor reports the message as a duplicate (the rest would
 * never happen). Thrown by the delivery that found out and by every later delivery of the message:
 * <b>do not acknowledge it</b>; let it go to your dead-letter handling and have a person check its
 * effects. Then either delete its receipt (the row of the subscriber and message id in the receipts
 * table, with outcome {@code RECEIVING}) so that the next delivery runs the handler again, or set
 * that outcome to {@code APPLIED} so that it is a duplicate.
 *
 * <p>Instances are immutable and thread-safe.
 */
public final class InboxIncompleteException extends InboxException {
  private static final long serialVersionUID = 1L;

  InboxIncompleteException(String message, Throwable cause) {
    super(message, cause);
  }
}
