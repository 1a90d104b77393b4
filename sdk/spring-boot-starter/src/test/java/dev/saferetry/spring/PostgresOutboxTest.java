package dev.saferetry.spring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.saferetry.RequestOptions;
import dev.saferetry.SafeRetryClient;
import dev.saferetry.spring.app.Orders;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.sql.Connection;
import java.sql.DriverManager;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * On PostgreSQL (127.0.0.1:5432, database test, user postgres; skipped when nothing answers), in a
 * schema of its own: SafeRetry's Flyway migrations applied at start-up, and an enqueue that commits
 * or rolls back with the business row inside a Spring transaction.
 */
class PostgresOutboxTest {
  private static final String BASE = "jdbc:postgresql://127.0.0.1:5432/test";
  private final String schema = "starter_" + Long.toHexString(System.nanoTime());

  private static boolean answers() {
    try (Socket s = new Socket()) {
      s.connect(new InetSocketAddress("127.0.0.1", 5432), 500);
      return true;
    } catch (IOException e) {
      return false;
    }
  }

  @AfterEach
  void dropSchema() throws Exception {
    if (answers()) {
      try (Connection c = DriverManager.getConnection(BASE, "postgres", "")) {
        c.createStatement().execute("DROP SCHEMA IF EXISTS " + schema + " CASCADE");
      }
    }
  }

  @Test
  void anEnqueueCommitsAndRollsBackWithTheBusinessRowOnPostgres() {
    assumeTrue(answers(), "no PostgreSQL on 127.0.0.1:5432");
    ProviderServer provider = new ProviderServer();
    JdbcContexts.onFreshH2()
        .withPropertyValues(
            "spring.datasource.url=" + BASE + "?currentSchema=" + schema,
            "spring.datasource.username=postgres",
            "spring.datasource.password=",
            "saferetry.jdbc.schema=" + schema,
            "saferetry.jdbc.schema-init=flyway",
            "saferetry.clients.payments.base-url=" + provider.url(),
            "saferetry.outbox.relay.poll-interval=20ms")
        .run(
            context -> {
              assertThat(context).hasNotFailed();
              JdbcTemplate jdbc = new JdbcTemplate(context.getBean(javax.sql.DataSource.class));
              jdbc.execute("CREATE TABLE orders (id VARCHAR(64) PRIMARY KEY)");
              SafeRetryClient payments = context.getBean("payments", SafeRetryClient.class);
              SafeRetryOutbox outbox = context.getBean(SafeRetryOutbox.class);
              TransactionTemplate tx =
                  new TransactionTemplate(context.getBean(PlatformTransactionManager.class));

              tx.executeWithoutResult(
                  s -> {
                    jdbc.update("INSERT INTO orders (id) VALUES ('pg-commit')");
                    outbox.enqueue(
                        payments,
                        Orders.CHARGE,
                        Map.of("amount", 1, "order", "pg-commit"),
                        RequestOptions.none().withIntentId("pg-commit"));
                  });
              assertThatThrownBy(
                      () ->
                          tx.executeWithoutResult(
                              s -> {
                                jdbc.update("INSERT INTO orders (id) VALUES ('pg-rollback')");
                                outbox.enqueue(
                                    payments,
                                    Orders.CHARGE,
                                    Map.of("amount", 1, "order", "pg-rollback"),
                                    RequestOptions.none().withIntentId("pg-rollback"));
                                throw new IllegalStateException("rolled back");
                              }))
                  .hasMessage("rolled back");

              String count = "SELECT COUNT(*) FROM saferetry_intents WHERE intent_id = ?";
              assertThat(jdbc.queryForObject(count, Long.class, "pg-commit")).isEqualTo(1);
              assertThat(jdbc.queryForObject(count, Long.class, "pg-rollback")).isZero();
              assertThat(jdbc.queryForObject("SELECT COUNT(*) FROM orders", Long.class))
                  .isEqualTo(1);
              await()
                  .atMost(Duration.ofSeconds(20))
                  .until(
                      () ->
                          jdbc.queryForObject(
                                  "SELECT state FROM saferetry_intents WHERE intent_id = ?",
                                  Integer.class,
                                  "pg-commit")
                              == 1);
              assertThat(provider.forOrder("pg-commit")).hasSize(1);
              assertThat(provider.forOrder("pg-rollback")).isEmpty();
              assertThat(
                      jdbc.queryForObject(
                          "SELECT COUNT(*) FROM " + SchemaInitializer.FLYWAY_HISTORY, Long.class))
                  .isPositive();
            });
  }
}
