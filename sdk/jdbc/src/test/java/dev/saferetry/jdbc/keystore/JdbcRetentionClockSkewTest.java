package dev.saferetry.jdbc.keystore;

import static dev.saferetry.jdbc.outbox.OutboxRelayTest.databaseTime;
import static dev.saferetry.jdbc.outbox.OutboxRelayTest.stored;
import static dev.saferetry.testing.Answers.charge;
import static dev.saferetry.testing.Answers.drain;
import static dev.saferetry.testing.Answers.status;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.saferetry.RequestOptions;
import dev.saferetry.SafeRetryClient;
import dev.saferetry.error.OutcomeUnknownException;
import dev.saferetry.error.Reason;
import dev.saferetry.examples.payments.ChargeCreateParams;
import dev.saferetry.examples.payments.Charges;
import dev.saferetry.idempotency.IntentRecord;
import dev.saferetry.idempotency.IntentScope;
import dev.saferetry.jdbc.TestDatabase;
import dev.saferetry.jdbc.TestDatabase.Db;
import dev.saferetry.jdbc.inbox.Inbox;
import dev.saferetry.jdbc.inbox.InboxResult;
import dev.saferetry.jdbc.outbox.JdbcOutbox;
import dev.saferetry.jdbc.outbox.OutboxAdmin;
import dev.saferetry.jdbc.outbox.OutboxIntent;
import dev.saferetry.jdbc.outbox.OutboxRelay;
import dev.saferetry.jdbc.outbox.OutboxRelayTest;
import dev.saferetry.jdbc.outbox.RelayPass;
import dev.saferetry.jdbc.outbox.RelayRows;
import dev.saferetry.resilience.BreakerPolicy;
import dev.saferetry.resilience.RetryPolicy;
import dev.saferetry.testing.Answers;
import dev.saferetry.testing.FakeTime;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import mockwebserver3.MockWebServer;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every retention, expiry and age decision of the JDBC stores is made at the database's clock: a
 * client, an enqueuer, a relay, a purge or an inbox on a host whose clock runs 25 hours or one
 * second ahead of the database's, or behind it, decides as a host with the right clock would. A
 * caller's time can only make a purge more cautious.
 *
 * <p>The database's clock cannot be moved, so a record is "aged" by moving its stored times back.
 * Where the decision lies within a second of the database's own clock (the one-second skews), a
 * case is conclusive only if the database's clock had not yet reached the record's expiry when the
 * decision was made; an inconclusive case is run again, and one conclusive run is required.
 */
public class JdbcRetentionClockSkewTest {
  private static final ChargeCreateParams PARAMS = new ChargeCreateParams(1000, "eur", "o", null);
  private static final Duration DAY = Duration.ofHours(24);
  private static final Duration HOURS_25 = Duration.ofHours(25);
  private static final Duration SECOND = Duration.ofSeconds(1);
  private static final IntentScope SCOPE = new IntentScope("default", "POST /v1/charges");
  private static final int TRIES = 5;

  /**
   * How far apart two readings of the database's clock taken at one moment may be: a reading is
   * advanced by this process's clock and is off by at most its query's round trip, which a loaded
   * machine stretches. Kept well under the smallest skew tried (1 s), so a time taken from a client
   * clock 1 s behind still falls outside.
   */
  private static final Duration READING = Duration.ofMillis(600);

  public static Stream<Arguments> ahead() {
    return skews(HOURS_25, SECOND);
  }

  public static Stream<Arguments> behind() {
    return skews(HOURS_25.negated(), SECOND.negated());
  }

  public static Stream<Arguments> bothWays() {
    return skews(HOURS_25, SECOND, HOURS_25.negated(), SECOND.negated());
  }

  private static Stream<Arguments> skews(Duration... skews) {
    List<Arguments> out = new ArrayList<>();
    for (Db db : Db.values()) {
      for (Duration skew : skews) {
        out.add(Arguments.of(db, skew));
      }
    }
    return out.stream();
  }

  /** Fake time {@code offset} away from the database's clock: a host whose clock is off. */
  public static FakeTime skewed(TestDatabase database, Duration offset) {
    FakeTime time = new FakeTime();
    time.advance(Duration.between(time.instant(), databaseTime(database).plus(offset)));
    return time;
  }

  /**
   * Moves every stored time of the intents table back by {@code d}: they become {@code d} older.
   */
  public static void age(TestDatabase database, Duration d) throws SQLException {
    long ns = d.toNanos();
    java.util.List<dev.saferetry.idempotency.IntentRecord> sealed =
        RelayRows.validlySealed(database);
    database.execute(
        "UPDATE "
            + database.table(JdbcKeyStoreBuilder.DEFAULT_TABLE)
            + " SET created_at_ns = created_at_ns - "
            + ns
            + ", expires_at_ns = expires_at_ns - "
            + ns
            + ", next_attempt_ns = next_attempt_ns - "
            + ns);
    RelayRows.resealMoved(database, sealed); // rows the SDK sealed stay sealed at their new times
  }

  /** Ages every record so that it expires {@code left} after the database's time now. */
  public static Instant expireIn(
      TestDatabase database, JdbcKeyStore store, String intentId, Duration left)
      throws SQLException {
    Instant expires = stored(database, "expires_at_ns", intentId);
    Duration by = Duration.between(databaseTime(database).plus(left), expires);
    age(database, by);
    return stored(database, "expires_at_ns", intentId);
  }

  public static SafeRetryClient client(
      MockWebServer server, Clock time, JdbcKeyStore store, Duration retention) {
    return SafeRetryClient.builder()
        .baseUrl(server.url("/").toString())
        .keyStore(store)
        .clock(time)
        .sleeper(new FakeTime())
        .jitter(() -> 0.5)
        .retryPolicy(RetryPolicy.noRetries())
        .intentRetention(retention)
        .breakerPolicy(BreakerPolicy.disabled())
        .build();
  }

  /** One case run on a fresh schema; returns whether it was conclusive. */
  interface Case {
    boolean run(TestDatabase database, JdbcKeyStore store, MockWebServer server) throws Exception;
  }

  /** Runs {@code body} until it is conclusive, at most {@value #TRIES} times; fails if never. */
  public static void conclusively(Db db, Case body) throws Exception {
    for (int i = 0; i < TRIES; i++) {
      try (TestDatabase database = db.open();
          JdbcKeyStore store = database.builder().build();
          MockWebServer server = new MockWebServer()) {
        server.start(0);
        if (body.run(database, store, server)) {
          return;
        }
      }
    }
    throw new AssertionError("no conclusive run in " + TRIES + " tries: the machine is too slow");
  }

  /** Half of the skew's size: a margin inside the window where the two clocks disagree. */
  private static Duration half(Duration skew) {
    return skew.abs().dividedBy(2);
  }

  @ParameterizedTest(name = "{0}, clock {1} ahead")
  @MethodSource("ahead")
  void aClientWhoseClockRunsAheadReplaysACompletedIntentTheDatabaseCallsFreshWithItsKey(
      Db db, Duration skew) throws Exception {
    conclusively(
        db,
        (database, store, server) -> {
          RequestOptions order = RequestOptions.none().withIntentId("order-1");
          server.enqueue(charge());
          try (SafeRetryClient right =
              client(server, skewed(database, Duration.ZERO), store, DAY)) {
            right.execute(Charges.CREATE, PARAMS, order);
          }
          Instant expires = expireIn(database, store, "order-1", half(skew));
          server.enqueue(charge()); // a replay, or a second charge under a new key
          try (SafeRetryClient ahead = client(server, skewed(database, skew), store, DAY)) {
            ahead.execute(Charges.CREATE, PARAMS, order);
          }
          boolean conclusive = databaseTime(database).isBefore(expires);
          List<String> keys = Answers.keys(drain(server), "Idempotency-Key");
          assertThat(keys).hasSize(2);
          if (conclusive) {
            assertThat(keys.get(1)).isEqualTo(keys.get(0));
          }
          return conclusive;
        });
  }

  @ParameterizedTest(name = "{0}, clock {1} off")
  @MethodSource("bothWays")
  void anIntentIsRecordedAtTheDatabasesTimeWithTheClientsRetention(Db db, Duration skew)
      throws Exception {
    conclusively(
        db,
        (database, store, server) -> {
          server.enqueue(charge());
          Instant before = databaseTime(database);
          try (SafeRetryClient off = client(server, skewed(database, skew), store, DAY)) {
            off.execute(Charges.CREATE, PARAMS, RequestOptions.none().withIntentId("order-1"));
          }
          Instant after = databaseTime(database);
          IntentRecord r = store.find(SCOPE, "order-1").orElseThrow();
          assertThat(r.createdAt()).isBetween(before.minus(READING), after);
          assertThat(r.expiresAt()).isEqualTo(r.createdAt().plus(DAY));
          return true;
        });
  }

  @ParameterizedTest(name = "{0}, clock {1} behind")
  @MethodSource("behind")
  void anIntentEnqueuedByAHostWhoseClockRunsBehindIsSentNotHeldExpired(Db db, Duration skew)
      throws Exception {
    conclusively(
        db,
        (database, store, server) -> {
          // The retention is as long as the skew: on the host's clock the intent would be born
          // expired.
          FakeTime behind = skewed(database, skew);
          enqueueOrder(database, store, server, behind, skew.abs());
          Instant expires = stored(database, "expires_at_ns", "order-1");
          server.enqueue(charge());
          FakeTime right = skewed(database, Duration.ZERO);
          RelayPass pass = relayOnce(server, store, store, right);
          if (!databaseTime(database).isBefore(expires)) {
            return false; // the intent really expired meanwhile
          }
          assertThat(pass.expired()).isZero();
          assertThat(pass.succeeded()).isEqualTo(1);
          assertThat(server.getRequestCount()).isEqualTo(1);
          return true;
        });
  }

  @ParameterizedTest(name = "{0}, clock {1} ahead")
  @MethodSource("ahead")
  void anIntentEnqueuedByAHostWhoseClockRunsAheadIsDueWhenTheDatabasesClockSays(
      Db db, Duration skew) throws Exception {
    conclusively(
        db,
        (database, store, server) -> {
          FakeTime ahead = skewed(database, skew);
          Instant before = databaseTime(database);
          enqueueOrder(database, store, server, ahead, DAY); // due at once, by its clock
          Instant after = databaseTime(database);
          assertThat(stored(database, "next_attempt_ns", "order-1"))
              .isBetween(before.minus(READING), after);
          assertThat(stored(database, "created_at_ns", "order-1"))
              .isBetween(before.minus(READING), after);
          server.enqueue(charge());
          FakeTime right = skewed(database, Duration.ZERO);
          assertThat(relayOnce(server, store, store, right).succeeded()).isEqualTo(1);
          return true;
        });
  }

  @ParameterizedTest(name = "{0}, clock {1} off")
  @MethodSource("bothWays")
  void theOperatorsAgeFilterJudgesAnIntentAtTheDatabasesClockWhoeverEnqueuedIt(Db db, Duration skew)
      throws Exception {
    conclusively(
        db,
        (database, store, server) -> {
          FakeTime off = skewed(database, skew);
          enqueueOrder(database, store, server, off, DAY);
          OutboxAdmin admin = JdbcOutbox.of(store).admin("ops");
          // Just enqueued: at least zero old, and not half the skew old.
          assertThat(admin.whereOlderThan(Duration.ZERO).list(10)).hasSize(1);
          List<OutboxIntent> older = admin.whereOlderThan(half(skew)).list(10);
          Instant created = stored(database, "created_at_ns", "order-1");
          if (!databaseTime(database).isBefore(created.plus(half(skew)))) {
            return false; // it really is that old by now
          }
          assertThat(older).isEmpty();
          return true;
        });
  }

  @ParameterizedTest(name = "{0}, clock {1} ahead")
  @MethodSource("ahead")
  void aRelayWhoseClockRunsAheadSendsAnIntentTheDatabaseCallsFresh(Db db, Duration skew)
      throws Exception {
    conclusively(
        db,
        (database, store, server) -> {
          FakeTime right = skewed(database, Duration.ZERO);
          enqueueOrder(database, store, server, right, DAY);
          Instant expires = expireIn(database, store, "order-1", half(skew));
          server.enqueue(charge());
          FakeTime ahead = skewed(database, skew);
          RelayPass pass =
              relayOnce(server, store, OutboxRelayTest.aged(database, Duration.ofDays(2)), ahead);
          if (!databaseTime(database).isBefore(expires)) {
            return false;
          }
          assertThat(pass.succeeded()).isEqualTo(1);
          assertThat(server.getRequestCount()).isEqualTo(1);
          return true;
        });
  }

  @ParameterizedTest(name = "{0}, clock {1} off")
  @MethodSource("bothWays")
  void aPendingIntentIsReSentOrRefusedAsTheDatabasesClockSays(Db db, Duration skew)
      throws Exception {
    conclusively(
        db,
        (database, store, server) -> {
          RequestOptions order = RequestOptions.none().withIntentId("order-1");
          server.enqueue(status(503)); // the answer is lost: order-1 stays pending
          try (SafeRetryClient right =
              client(server, skewed(database, Duration.ZERO), store, DAY)) {
            assertThatThrownBy(() -> right.execute(Charges.CREATE, PARAMS, order))
                .isInstanceOf(OutcomeUnknownException.class);
          }
          // Ahead: fresh by the database's clock, expired by the host's. Behind: the other way.
          boolean ahead = !skew.isNegative();
          Duration left = ahead ? half(skew) : half(skew).negated();
          Instant expires = expireIn(database, store, "order-1", left);
          server.enqueue(charge());
          try (SafeRetryClient off = client(server, skewed(database, skew), store, DAY)) {
            if (ahead) {
              off.execute(Charges.CREATE, PARAMS, order);
            } else {
              assertThatThrownBy(() -> off.execute(Charges.CREATE, PARAMS, order))
                  .isInstanceOfSatisfying(
                      OutcomeUnknownException.class,
                      e -> assertThat(e.reason()).isEqualTo(Reason.INTENT_EXPIRED));
            }
          }
          if (ahead && !databaseTime(database).isBefore(expires)) {
            return false;
          }
          List<String> keys = Answers.keys(drain(server), "Idempotency-Key");
          if (ahead) {
            assertThat(keys).hasSize(2).containsOnly(keys.get(0)); // re-sent with its key
          } else {
            assertThat(keys).hasSize(1); // the stale key was not sent again
          }
          return true;
        });
  }

  @ParameterizedTest(name = "{0}, clock {1} ahead")
  @MethodSource("ahead")
  void aPurgeFromAHostWhoseClockRunsAheadKeepsWhatTheDatabaseCallsFresh(Db db, Duration skew)
      throws Exception {
    conclusively(
        db,
        (database, store, server) -> {
          chargeAtTheDatabasesTime(database, store, server);
          Instant expires = expireIn(database, store, "order-1", half(skew));
          int purged = store.purgeExpired(skewed(database, skew).instant());
          if (!databaseTime(database).isBefore(expires)) {
            return false;
          }
          assertThat(purged).isZero();
          assertThat(store.find(SCOPE, "order-1")).isPresent();
          return true;
        });
  }

  @ParameterizedTest(name = "{0}, clock {1} behind")
  @MethodSource("behind")
  void aPurgeFromAHostWhoseClockRunsBehindDeletesOnlyWhatItsOwnClockCallsExpiredToo(
      Db db, Duration skew) throws Exception {
    conclusively(
        db,
        (database, store, server) -> {
          chargeAtTheDatabasesTime(database, store, server);
          expireIn(database, store, "order-1", half(skew).negated()); // expired by the database
          assertThat(store.purgeExpired(skewed(database, skew).instant()))
              .isZero(); // not by its own
          assertThat(store.purgeExpired(Instant.MAX.minusSeconds(1))).isEqualTo(1);
          assertThat(store.find(SCOPE, "order-1")).isEmpty();
          return true;
        });
  }

  @ParameterizedTest(name = "{0}, clock {1} behind")
  @MethodSource("behind")
  void aReceiptRecordedByAHostWhoseClockRunsBehindIsKeptItsFullRetention(Db db, Duration skew)
      throws Exception {
    conclusively(
        db,
        (database, store, server) -> {
          Inbox behind = inbox(database, skewed(database, skew), true);
          Instant received = databaseTime(database); // when it is received, by the database
          behind.receive("billing", "evt_1", ctx -> {});
          assertThat(receivedAt(database, "evt_1")).isAfterOrEqualTo(received.minus(READING));
          Inbox right = inbox(database, Clock.system(ZoneOffset.UTC), false);
          Duration keep = half(skew);
          int purged = right.purgeReceiptsOlderThan(keep);
          if (!databaseTime(database).isBefore(received.plus(keep))) {
            return false;
          }
          assertThat(purged).isZero();
          assertThat(right.receive("billing", "evt_1", ctx -> {})).isEqualTo(InboxResult.DUPLICATE);
          return true;
        });
  }

  @ParameterizedTest(name = "{0}, clock {1} ahead")
  @MethodSource("ahead")
  void aReceiptPurgeFromAHostWhoseClockRunsAheadKeepsWhatTheDatabaseCallsYoung(Db db, Duration skew)
      throws Exception {
    conclusively(
        db,
        (database, store, server) -> {
          Inbox right = inbox(database, Clock.system(ZoneOffset.UTC), true);
          right.receive("billing", "evt_1", ctx -> {});
          Instant received = receivedAt(database, "evt_1");
          Inbox ahead = inbox(database, skewed(database, skew), false);
          Duration keep = half(skew);
          int purged = ahead.purgeReceiptsOlderThan(keep);
          if (!databaseTime(database).isBefore(received.plus(keep))) {
            return false;
          }
          assertThat(purged).isZero();
          assertThat(ahead.receive("billing", "evt_1", ctx -> {})).isEqualTo(InboxResult.DUPLICATE);
          return true;
        });
  }

  /** Enqueues order-1 in its own transaction from a host on {@code host}'s clock, due at once. */
  private static void enqueueOrder(
      TestDatabase database,
      JdbcKeyStore store,
      MockWebServer server,
      FakeTime host,
      Duration retention)
      throws SQLException {
    try (SafeRetryClient enqueuer = client(server, host, store, retention);
        Connection c = database.pool().getConnection()) {
      c.setAutoCommit(false);
      JdbcOutbox.of(store)
          .enqueue(
              c,
              enqueuer,
              Charges.CREATE,
              PARAMS,
              RequestOptions.none().withIntentId("order-1"),
              host.instant());
      c.commit();
    }
  }

  /** One pass of a relay over {@code relayStore} on {@code host}'s clock. */
  private static RelayPass relayOnce(
      MockWebServer server, JdbcKeyStore store, JdbcKeyStore relayStore, FakeTime host) {
    try (SafeRetryClient relayClient = client(server, host, store, DAY)) {
      return OutboxRelay.builder()
          .store(relayStore)
          .client(relayClient)
          .clock(host)
          .sleeper(host)
          .leaseFor(Duration.ofMinutes(2))
          .build()
          .runOnce();
    }
  }

  /** Charges order-1, answered, from a host whose clock is the database's. */
  private static void chargeAtTheDatabasesTime(
      TestDatabase database, JdbcKeyStore store, MockWebServer server) {
    server.enqueue(charge());
    try (SafeRetryClient right = client(server, skewed(database, Duration.ZERO), store, DAY)) {
      right.execute(Charges.CREATE, PARAMS, RequestOptions.none().withIntentId("order-1"));
    }
  }

  private static Inbox inbox(TestDatabase database, Clock clock, boolean createSchema) {
    return Inbox.builder()
        .dataSource(database.pool())
        .table(database.table("inbox"))
        .createSchema(createSchema)
        .clock(clock)
        .build();
  }

  private static Instant receivedAt(TestDatabase database, String messageId) throws SQLException {
    long ms =
        database.count(
            "SELECT received_at FROM "
                + database.table("inbox")
                + " WHERE message_id = '"
                + messageId
                + "'");
    return Instant.ofEpochMilli(ms);
  }
}
