package dev.saferetry.examples.checkout;

import dev.saferetry.RequestOptions;
import dev.saferetry.SafeRetryClient;
import dev.saferetry.examples.checkout.PaymentsApi.ChargeRequest;
import dev.saferetry.spring.SafeRetryOutbox;
import java.util.List;
import java.util.Optional;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

/** Places orders and marks them paid, each in one transaction. */
@Service
public class OrderService {
  private final JdbcTemplate jdbc;
  private final SafeRetryOutbox outbox;
  private final SafeRetryClient payments;

  OrderService(
      JdbcTemplate jdbc, SafeRetryOutbox outbox, @Qualifier("payments") SafeRetryClient payments) {
    this.jdbc = jdbc;
    this.outbox = outbox;
    this.payments = payments;
  }

  /**
   * Saves the order and enqueues its charge: both commit, or neither does. The relay sends the
   * charge after the commit, with a key minted now, so a retry or a redelivery never charges twice.
   */
  @Transactional
  public void place(String orderId, long amount, String currency) {
    jdbc.update(
        "INSERT INTO orders (id, amount, currency, status) VALUES (?, ?, ?, 'PLACED')",
        orderId,
        amount,
        currency);
    outbox.enqueue(
        payments,
        PaymentsApi.CREATE_CHARGE,
        new ChargeRequest(amount, currency, "order " + orderId),
        RequestOptions.none().withIntentId("order-" + orderId + "/charge"));
  }

  /**
   * Marks the order paid by the provider's charge; called once per event, in the transaction that
   * records the event in the inbox ({@link PaymentWebhooks}).
   */
  @Transactional
  public void markPaid(PaymentEvent event) {
    jdbc.update(
        "UPDATE orders SET status = 'PAID', charge_id = ? WHERE id = ?",
        event.charge(),
        event.order());
  }

  /** {@return the order's status, if there is such an order} */
  public Optional<String> status(String orderId) {
    List<String> found =
        jdbc.queryForList("SELECT status FROM orders WHERE id = ?", String.class, orderId);
    return found.stream().findFirst();
  }

  /**
   * A payment event of the provider: a charge made for an order.
   *
   * @param type the event type, e.g. {@code charge.succeeded}
   * @param order the order id
   * @param charge the provider's charge id
   */
  public record PaymentEvent(String type, String order, String charge) {}
}
