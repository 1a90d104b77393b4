package dev.saferetry.jdbc.inbox;

/**
 * The work to do for a message the first time it is received. It runs inside the inbox's
 * transaction, after the receipt was recorded and before it commits: write through {@link
 * InboxContext#connection()}, which refuses to commit, roll back or close (see there). Throwing
 * rolls back the receipt with the work, so a redelivery runs the handler again. Do not call {@link
 * Inbox#receive(String, String, InboxHandler)} from a handler (it is refused): pass the handler's
 * connection to {@link Inbox#receive(java.sql.Connection, String, String, InboxHandler)} to record
 * another message in the same transaction.
 *
 * <p>Keep it short — it holds a row lock on the receipt while it runs. Heavy or remote work belongs
 * in a queue or outbox table written here and processed after the commit.
 *
 * <p>Implementations must be safe to call from every thread that receives messages.
 */
@FunctionalInterface
public interface InboxHandler {
  /**
   * Applies the message.
   *
   * @param context the transaction and the message's identity
   * @throws Exception to roll back the receipt and the work
   */
  void handle(InboxContext context) throws Exception;
}
