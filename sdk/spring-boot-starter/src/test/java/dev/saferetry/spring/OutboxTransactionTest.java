package dev.saferetry.spring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.saferetry.spring.app.Orders;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import mockwebserver3.RecordedRequest;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.JdbcTemplate;

/** An enqueue inside {@code @Transactional} commits and rolls back with the business rows. */
class OutboxTransactionTest extends StarterContextTest {
  @Autowired Orders orders;
  @Autowired JdbcTemplate jdbc;
  @Autowired SafeRetryOutbox outbox;
  @Autowired org.springframework.transaction.PlatformTransactionManager transactions;

  private List<Map<String, Object>> intents(String orderId) {
    return jdbc.queryForList(
        "SELECT state, relay_state, idempotency_key FROM saferetry_intents WHERE intent_id = ?",
        "order-" + orderId);
  }

  @Test
  void anEnqueueCommitsWithTheOrderAndTheRelaySendsItWithItsKey() {
    orders.place("tx-commit", 1250);

    assertThat(jdbc.queryForObject("SELECT amount FROM orders WHERE id = 'tx-commit'", Long.class))
        .isEqualTo(1250L);
    assertThat(intents("tx-commit")).hasSize(1);
    String key = (String) intents("tx-commit").get(0).get("IDEMPOTENCY_KEY");

    await()
        .atMost(Duration.ofSeconds(20))
        .until(() -> ((Number) intents("tx-commit").get(0).get("STATE")).intValue() == 1);
    List<RecordedRequest> sent = PROVIDER.forOrder("tx-commit");
    assertThat(sent).hasSize(1);
    assertThat(sent.get(0).getHeaders().get("Idempotency-Key")).isEqualTo(key);
    assertThat(sent.get(0).getHeaders().get("Authorization")).isEqualTo("Bearer " + API_KEY);
  }

  @Test
  void anEnqueueRollsBackWithTheOrder() {
    assertThatThrownBy(() -> orders.placeThenFail("tx-rollback", 990))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("stock check failed");

    assertThat(
            jdbc.queryForObject("SELECT COUNT(*) FROM orders WHERE id = 'tx-rollback'", Long.class))
        .isZero();
    assertThat(intents("tx-rollback")).isEmpty();
    assertThat(PROVIDER.forOrder("tx-rollback")).isEmpty();
  }

  @Test
  void anEnqueueWithAClientOnAnotherKeyStoreIsRefused(
      @org.springframework.beans.factory.annotation.Qualifier("ledger")
          dev.saferetry.SafeRetryClient ledger) {
    assertThatThrownBy(
            () ->
                new org.springframework.transaction.support.TransactionTemplate(transactions)
                    .executeWithoutResult(
                        s ->
                            outbox.enqueue(
                                ledger,
                                Orders.CHARGE,
                                Map.of("amount", 1),
                                dev.saferetry.RequestOptions.none().withIntentId("order-ledger"))))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("key-store.type: datasource");
    assertThat(intents("ledger")).isEmpty();
  }

  @Test
  void anEnqueueOutsideATransactionIsRefusedAndRecordsNothing() {
    assertThatThrownBy(() -> orders.enqueueWithoutTransaction("tx-none"))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("@Transactional");
    assertThat(intents("tx-none")).isEmpty();
  }
}
