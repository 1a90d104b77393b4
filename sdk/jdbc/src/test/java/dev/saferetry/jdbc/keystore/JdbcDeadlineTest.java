package dev.saferetry.jdbc.keystore;

import static dev.saferetry.jdbc.keystore.JdbcBeginRaceTest.SCOPE;
import static dev.saferetry.jdbc.keystore.JdbcBeginRaceTest.candidate;
import static dev.saferetry.testing.Answers.charge;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import dev.saferetry.CallResult;
import dev.saferetry.RequestOptions;
import dev.saferetry.SafeRetryClient;
import dev.saferetry.error.OutcomeUnknownException;
import dev.saferetry.error.Reason;
import dev.saferetry.examples.payments.Charge;
import dev.saferetry.examples.payments.ChargeCreateParams;
import dev.saferetry.examples.payments.Charges;
import dev.saferetry.idempotency.IntentState;
import dev.saferetry.idempotency.KeyStoreException;
import dev.saferetry.jdbc.TestDatabase;
import dev.saferetry.jdbc.TestDatabase.Db;
import dev.saferetry.jdbc.internal.Dialect;
import dev.saferetry.jdbc.outbox.JdbcOutbox;
import dev.saferetry.resilience.BreakerPolicy;
import java.io.IOException;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicReference;
import javax.sql.DataSource;
import mockwebserver3.Dispatcher;
import mockwebserver3.MockResponse;
import mockwebserver3.MockWebServer;
import mockwebserver3.RecordedRequest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A call's deadline bounds the key store's database waits: a row another transaction holds ends the
 * wait at the deadline with a typed outcome, not after the database's own lock timeout (none on
 * PostgreSQL by default, 50 s on MariaDB). The databases here are configured with long lock waits,
 * as in production; the measured times are only generous upper bounds.
 */
class JdbcDeadlineTest {
  /** Far more than the deadlines used here, far less than the databases' own waits. */
  private static final Duration BOUND = Duration.ofSeconds(10);

  /** Stops a test that waits as the old code did (forever on PostgreSQL). */
  private static final Duration HANG = Duration.ofSeconds(40);

  private static final String INTENT = "order-1/charge";

  /** A pool whose sessions wait 30 s for a row lock (PostgreSQL: no limit, its default). */
  private static DataSource longWaits(TestDatabase database) {
    return database.newPool(
        2,
        switch (database.db) {
          case H2 -> "SET LOCK_TIMEOUT 30000";
          case MARIADB -> "SET SESSION innodb_lock_wait_timeout = 30";
          case POSTGRESQL -> null;
        });
  }

  /** A client of {@code server} (started here) on {@code store}. */
  private static SafeRetryClient client(MockWebServer server, JdbcKeyStore store)
      throws IOException {
    server.start(0);
    return SafeRetryClient.builder()
        .baseUrl(server.url("/").toString())
        .keyStore(store)
        .breakerPolicy(BreakerPolicy.disabled())
        .build();
  }

  private static RequestOptions within(Duration deadline) {
    return RequestOptions.none().withIntentId(INTENT).withDeadline(deadline);
  }

  private static final ChargeCreateParams PARAMS =
      new ChargeCreateParams(1000, "eur", "order 1", null);

  /** Another transaction records the intent and keeps its row until it ends. */
  private static Connection holdIntent(TestDatabase database, JdbcKeyStore store)
      throws SQLException {
    Connection other = database.pool().getConnection();
    other.setAutoCommit(false);
    store.begin(other, candidate(INTENT, "fp", Instant.now()));
    return other;
  }

  @ParameterizedTest
  @EnumSource(Db.class)
  void aCallWhoseIntentAnotherTransactionHoldsEndsAtItsDeadlineAndSendsNothing(Db db)
      throws Exception {
    try (TestDatabase database = db.open();
        MockWebServer server = new MockWebServer();
        JdbcKeyStore setup = database.builder().build();
        JdbcKeyStore store =
            JdbcKeyStore.builder()
                .dataSource(longWaits(database))
                .outboxSealKey(TestDatabase.SEAL_KEY_ID, TestDatabase.sealSecret())
                .schema(database.schema)
                .build();
        SafeRetryClient client = client(server, store)) {
      Connection other = holdIntent(database, setup);
      long start = System.nanoTime();

      OutcomeUnknownException unknown =
          assertTimeoutPreemptively(
              HANG,
              () ->
                  assertThrows(
                      OutcomeUnknownException.class,
                      () -> client.execute(Charges.CREATE, PARAMS, within(Duration.ofSeconds(1)))));
      Duration took = Duration.ofNanos(System.nanoTime() - start);
      other.rollback();
      other.close();

      assertThat(unknown.reason()).isEqualTo(Reason.KEY_STORE_FAILED);
      assertThat(unknown).hasCauseInstanceOf(KeyStoreException.class);
      assertThat(isTimeout(db, unknown)).as("the driver's timeout error is the cause").isTrue();
      assertThat(server.getRequestCount()).isZero();
      assertThat(took).isLessThan(BOUND);
    }
  }

  @ParameterizedTest
  @EnumSource(Db.class)
  void aCompletionAnotherTransactionBlocksEndsByTheDeadlineAndLeavesTheIntentPending(Db db)
      throws Exception {
    try (TestDatabase database = db.open();
        MockWebServer server = new MockWebServer();
        JdbcKeyStore store =
            JdbcKeyStore.builder()
                .dataSource(longWaits(database))
                .outboxSealKey(TestDatabase.SEAL_KEY_ID, TestDatabase.sealSecret())
                .schema(database.schema)
                .createSchema(true)
                .build();
        SafeRetryClient client = client(server, store);
        Connection other = database.pool().getConnection()) {
      other.setAutoCommit(false);
      AtomicReference<SQLException> lockFailed = new AtomicReference<>();
      server.setDispatcher(
          new Dispatcher() {
            @Override
            public MockResponse dispatch(RecordedRequest request) {
              try (Statement s = other.createStatement()) {
                s.executeUpdate(
                    "UPDATE "
                        + database.table("saferetry_intents")
                        + " SET status = status WHERE intent_id = '"
                        + INTENT
                        + "'");
              } catch (SQLException e) {
                lockFailed.set(e);
              }
              return charge();
            }
          });
      long start = System.nanoTime();

      CallResult<Charge> result =
          assertTimeoutPreemptively(
              HANG, () -> client.execute(Charges.CREATE, PARAMS, within(Duration.ofSeconds(2))));
      Duration took = Duration.ofNanos(System.nanoTime() - start);
      other.rollback();

      assertThat((Object) lockFailed.get()).isNull();
      assertThat(result.status()).isEqualTo(200);
      assertThat(server.getRequestCount()).isEqualTo(1);
      assertThat(took).isLessThan(BOUND);
      assertThat(store.find(SCOPE, INTENT).orElseThrow().state()).isEqualTo(IntentState.PENDING);
    }
  }

  @ParameterizedTest
  @EnumSource(Db.class)
  void anEnqueueWaitingForAnIntentAnotherTransactionHoldsEndsAtTheCallsDeadline(Db db)
      throws Exception {
    try (TestDatabase database = db.open();
        MockWebServer server = new MockWebServer();
        JdbcKeyStore setup = database.builder().build()) {
      DataSource pool = longWaits(database);
      JdbcKeyStore store =
          JdbcKeyStore.builder()
              .dataSource(pool)
              .outboxSealKey(TestDatabase.SEAL_KEY_ID, TestDatabase.sealSecret())
              .schema(database.schema)
              .build();
      SafeRetryClient client = client(server, store);
      Connection other = holdIntent(database, setup);
      long start = System.nanoTime();

      try (Connection mine = pool.getConnection()) {
        mine.setAutoCommit(false);
        KeyStoreException cut =
            assertTimeoutPreemptively(
                HANG,
                () ->
                    assertThrows(
                        KeyStoreException.class,
                        () ->
                            JdbcOutbox.of(store)
                                .enqueue(
                                    mine,
                                    client,
                                    Charges.CREATE,
                                    PARAMS,
                                    within(Duration.ofSeconds(1)),
                                    Instant.now())));
        mine.rollback();
        assertThat(isTimeout(db, cut)).isTrue();
      }
      Duration took = Duration.ofNanos(System.nanoTime() - start);
      other.rollback();
      other.close();

      assertThat(took).isLessThan(BOUND);
      assertThat(store.find(SCOPE, INTENT)).isEmpty();
      assertThat(server.getRequestCount()).isZero();
      client.close();
      store.close();
    }
  }

  @Test
  void theStoreLowersH2sLockWaitOnlyForTheOperationAndRestoresIt() throws Exception {
    try (TestDatabase database = Db.H2.open()) {
      DataSource pool = database.newPool(1, "SET LOCK_TIMEOUT 30000");
      try (JdbcKeyStore setup = database.builder().build();
          JdbcKeyStore store =
              JdbcKeyStore.builder()
                  .dataSource(pool)
                  .outboxSealKey(TestDatabase.SEAL_KEY_ID, TestDatabase.sealSecret())
                  .schema(database.schema)
                  .build()) {
        store.begin(candidate("order-2/charge", "fp", Instant.now()), Duration.ofSeconds(1));
        try (Connection c = pool.getConnection();
            Statement s = c.createStatement();
            ResultSet rs = s.executeQuery("SELECT LOCK_TIMEOUT()")) {
          rs.next();
          assertThat(rs.getLong(1)).isEqualTo(30000);
        }
        assertThat(setup.find(SCOPE, "order-2/charge")).isPresent();
      }
    }
  }

  @ParameterizedTest
  @EnumSource(Db.class)
  void aTimeNotWorthBoundingIsNoBoundAndANegativeWaitIsRefused(Db db) throws Exception {
    try (TestDatabase database = db.open();
        JdbcKeyStore store = database.builder().build()) {
      assertThat(
              store
                  .begin(
                      candidate("order-3/charge", "fp", Instant.now()),
                      Duration.ofSeconds(Long.MAX_VALUE))
                  .created())
          .isTrue();
      assertThat(
              store
                  .begin(candidate("order-4/charge", "fp", Instant.now()), Duration.ZERO)
                  .created())
          .isTrue();
      assertThatThrownBy(
              () ->
                  store.begin(
                      candidate("order-5/charge", "fp", Instant.now()), Duration.ofNanos(-1)))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("maxWait");
      assertThat(store.find(SCOPE, "order-5/charge")).isEmpty();
    }
  }

  /** Whether the failure's causes hold the database's own timeout error. */
  private static boolean isTimeout(Db db, Throwable failure) {
    Dialect dialect = Dialect.valueOf(db.name());
    for (Throwable t = failure; t != null; t = t.getCause()) {
      if (t instanceof SQLException e && dialect.isTimeout(e)) {
        return true;
      }
    }
    return false;
  }
}
