package dev.saferetry.spring;

import dev.saferetry.jdbc.inbox.Inbox;
import dev.saferetry.jdbc.inbox.InboxHandler;
import dev.saferetry.jdbc.inbox.InboxResult;
import java.sql.Connection;
import javax.sql.DataSource;

/**
 * The inbox on the application's {@code DataSource}, joining the Spring-managed transaction: a
 * message's receipt commits or rolls back with what its handler wrote, so a redelivery is applied
 * once. See {@link SafeRetryWebhooks} for webhook deliveries.
 *
 * <pre>{@code
 * @Transactional
 * public void onEvent(String id, Event e) {
 *   inbox.receive("orders", id, ctx -> orders.markPaid(e.orderId()));
 * }
 * }</pre>
 *
 * <p>This class is thread-safe.
 */
public final class SafeRetryInbox {
  private final Inbox inbox;
  private final DataSource dataSource;

  SafeRetryInbox(Inbox inbox, DataSource dataSource) {
    this.inbox = inbox;
    this.dataSource = dataSource;
  }

  /**
   * Receives a message in the current transaction: the first time runs {@code handler} (its work on
   * the application's DataSource, e.g. through a {@code JdbcTemplate} or a repository, joins the
   * same transaction); a redelivery does nothing and returns {@link InboxResult#DUPLICATE}.
   *
   * @param subscriber who consumes the message (1 to 200 characters)
   * @param messageId the provider's event or delivery id (1 to 255 characters)
   * @param handler the work to do the first time
   * @return what happened
   * @throws IllegalStateException if no Spring-managed transaction is active
   * @throws dev.saferetry.jdbc.inbox.InboxException as {@link Inbox#receive(Connection, String,
   *     String, InboxHandler)}: roll back and ask for the message again
   */
  public InboxResult receive(String subscriber, String messageId, InboxHandler handler) {
    Connection c = SpringTransactions.current(dataSource, "SafeRetryInbox.receive");
    try {
      return inbox.receive(c, subscriber, messageId, handler);
    } finally {
      SpringTransactions.release(c, dataSource);
    }
  }

  /** {@return the underlying inbox} */
  public Inbox inbox() {
    return inbox;
  }

  @Override
  public String toString() {
    return "SafeRetryInbox[" + inbox + "]";
  }
}
