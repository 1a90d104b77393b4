package dev.saferetry.spring.app;

import dev.saferetry.Operation;
import dev.saferetry.RequestOptions;
import dev.saferetry.SafeRetryClient;
import dev.saferetry.spring.SafeRetryOutbox;
import java.util.Map;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

/** Places orders: the order row and its charge's intent in one transaction. */
@Service
public class Orders {
  /** The provider's charge operation. */
  @SuppressWarnings({"unchecked", "rawtypes"})
  public static final Operation<Map, Map> CHARGE =
      Operation.post("/v1/charges", Map.class, Map.class);

  private final JdbcTemplate jdbc;
  private final SafeRetryOutbox outbox;
  private final SafeRetryClient payments;

  Orders(
      JdbcTemplate jdbc, SafeRetryOutbox outbox, @Qualifier("payments") SafeRetryClient payments) {
    this.jdbc = jdbc;
    this.outbox = outbox;
    this.payments = payments;
  }

  /** Saves the order and enqueues its charge. */
  @Transactional
  public void place(String orderId, long amount) {
    jdbc.update("INSERT INTO orders (id, amount) VALUES (?, ?)", orderId, amount);
    outbox.enqueue(
        payments,
        CHARGE,
        Map.of("amount", amount, "order", orderId),
        RequestOptions.none().withIntentId("order-" + orderId));
  }

  /** Saves the order, enqueues its charge, then fails: both are rolled back. */
  @Transactional
  public void placeThenFail(String orderId, long amount) {
    place(orderId, amount);
    throw new IllegalStateException("stock check failed for " + orderId);
  }

  /** Enqueues without a transaction: refused. */
  public void enqueueWithoutTransaction(String orderId) {
    outbox.enqueue(
        payments,
        CHARGE,
        Map.of("amount", 1, "order", orderId),
        RequestOptions.none().withIntentId("order-" + orderId));
  }
}
