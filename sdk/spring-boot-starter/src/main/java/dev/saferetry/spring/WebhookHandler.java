package dev.saferetry.spring;

import dev.saferetry.jdbc.inbox.InboxContext;
import dev.saferetry.webhook.VerifiedWebhook;

/**
 * What a verified webhook delivery does the first time it arrives: runs inside the transaction that
 * records its receipt, so its writes on the application's DataSource (a {@code JdbcTemplate}, a
 * repository) commit with the receipt or not at all.
 *
 * <p>Implementations need not be thread-safe beyond what their own writes need.
 */
@FunctionalInterface
public interface WebhookHandler {
  /**
   * Applies the delivery.
   *
   * @param event the verified delivery: its id, its raw payload
   * @param inbox the inbox's context (marks, the message id)
   * @throws Exception to roll the delivery back: it is not recorded and may be delivered again
   */
  void handle(VerifiedWebhook event, InboxContext inbox) throws Exception;
}
