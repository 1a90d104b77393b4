package dev.saferetry.spring;

import static org.assertj.core.api.Assertions.assertThat;

import dev.saferetry.RequestOptions;
import dev.saferetry.SafeRetryClient;
import dev.saferetry.spring.app.Orders;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

/** The relays start with the context and stop gracefully with it, a send in flight or not. */
class RelayLifecycleTest {
  @Test
  void aStopWaitsForTheSendInFlightWhichEndsSucceededNeverFailed() throws Exception {
    ProviderServer provider = new ProviderServer();
    CountDownLatch arrived = provider.hold();
    String url = "jdbc:h2:mem:relay-stop-" + System.nanoTime() + ";DB_CLOSE_DELAY=-1";
    JdbcContexts.onFreshH2()
        .withPropertyValues(
            "spring.datasource.url=" + url,
            "saferetry.jdbc.schema-init=create",
            "saferetry.clients.payments.base-url=" + provider.url(),
            "saferetry.outbox.relay.poll-interval=20ms",
            "saferetry.outbox.relay.count=2",
            "saferetry.outbox.relay.concurrency=3")
        .run(
            context -> {
              assertThat(context).hasNotFailed();
              SafeRetryClient payments = context.getBean("payments", SafeRetryClient.class);
              SafeRetryOutbox outbox = context.getBean(SafeRetryOutbox.class);
              new TransactionTemplate(context.getBean(PlatformTransactionManager.class))
                  .executeWithoutResult(
                      s ->
                          outbox.enqueue(
                              payments,
                              Orders.CHARGE,
                              Map.of("amount", 100, "order", "in-flight"),
                              RequestOptions.none().withIntentId("in-flight")));
              assertThat(arrived.await(20, TimeUnit.SECONDS)).as("the relay sent it").isTrue();
              RelayLifecycle relays = context.getBean(RelayLifecycle.class);
              assertThat(relays.relays()).hasSize(2);
              assertThat(relays.aliveThreads()).isEqualTo(2);

              Thread closer = new Thread(context::close, "closer");
              closer.start();
              closer.join(500);
              assertThat(closer.isAlive()).as("the stop waits for the send in flight").isTrue();
              assertThat(state(url)).as("pending while in flight").isEqualTo(0);

              provider.release();
              closer.join(20_000);
              assertThat(closer.isAlive()).isFalse();
              assertThat(relays.isRunning()).isFalse();
              assertThat(relays.aliveThreads()).isZero();
            });
    assertThat(state(url))
        .as("succeeded: the answer was recorded before the stop ended")
        .isEqualTo(1);
    assertThat(provider.received).hasSize(1);
  }

  @Test
  void withoutASealKeyNoRelayRunsAndAnEnqueueIsRefusedNamingTheProperty() {
    JdbcContexts.onFreshH2()
        .withPropertyValues(
            "saferetry.jdbc.outbox-seal-key.id=",
            "saferetry.jdbc.outbox-seal-key.secret=",
            "saferetry.jdbc.schema-init=create",
            "saferetry.clients.payments.base-url=http://127.0.0.1:9/")
        .run(
            context -> {
              assertThat(context).hasNotFailed();
              assertThat(context.getBean(RelayLifecycle.class).relays()).isEmpty();
              SafeRetryClient payments = context.getBean("payments", SafeRetryClient.class);
              SafeRetryOutbox outbox = context.getBean(SafeRetryOutbox.class);
              org.assertj.core.api.Assertions.assertThatThrownBy(
                      () ->
                          new TransactionTemplate(context.getBean(PlatformTransactionManager.class))
                              .executeWithoutResult(
                                  s ->
                                      outbox.enqueue(
                                          payments,
                                          Orders.CHARGE,
                                          Map.of("amount", 1),
                                          RequestOptions.none().withIntentId("unsealed"))))
                  .isInstanceOf(IllegalStateException.class)
                  .hasMessageContaining("saferetry.jdbc.outbox-seal-key");
            });
  }

  @Test
  void relaysCanBeSwitchedOffForAnInstanceThatOnlyEnqueues() {
    JdbcContexts.onFreshH2()
        .withPropertyValues(
            "saferetry.jdbc.schema-init=create",
            "saferetry.clients.payments.base-url=http://127.0.0.1:9/",
            "saferetry.outbox.relay.enabled=false")
        .run(
            context -> {
              assertThat(context).hasNotFailed().doesNotHaveBean(RelayLifecycle.class);
              assertThat(context).hasSingleBean(SafeRetryOutbox.class);
            });
  }

  private static int state(String url) throws SQLException {
    try (Connection c = DriverManager.getConnection(url, "sa", "");
        ResultSet rs =
            c.createStatement()
                .executeQuery(
                    "SELECT state FROM saferetry_intents WHERE intent_id = 'in-flight'")) {
      assertThat(rs.next()).isTrue();
      return rs.getInt(1);
    }
  }
}
