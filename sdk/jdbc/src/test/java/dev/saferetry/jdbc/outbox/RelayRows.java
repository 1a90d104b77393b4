package dev.saferetry.jdbc.outbox;

import static org.assertj.core.api.Assertions.assertThat;

import dev.saferetry.RequestOptions;
import dev.saferetry.SafeRetryClient;
import dev.saferetry.SafeRetryClientBuilder;
import dev.saferetry.examples.payments.ChargeCreateParams;
import dev.saferetry.examples.payments.Charges;
import dev.saferetry.idempotency.BeginResult;
import dev.saferetry.idempotency.IntentRecord;
import dev.saferetry.idempotency.IntentScope;
import dev.saferetry.jdbc.TestDatabase;
import dev.saferetry.jdbc.internal.keystore.RowSeal;
import dev.saferetry.jdbc.keystore.JdbcKeyStore;
import dev.saferetry.jdbc.keystore.JdbcKeyStoreBuilder;
import dev.saferetry.resilience.BreakerPolicy;
import dev.saferetry.resilience.RetryPolicy;
import dev.saferetry.testing.FakeTime;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.UnaryOperator;
import mockwebserver3.MockWebServer;

/**
 * Outbox rows as an outsider sees them: enqueued through the public API by differently configured
 * clients, and changed in the table behind the relay's back with plain SQL.
 */
public final class RelayRows {
  private RelayRows() {}

  /**
   * A client on {@code server} at fake time, as the relay tests build them, then {@code custom}.
   */
  static SafeRetryClient client(
      MockWebServer server,
      FakeTime time,
      JdbcKeyStore store,
      UnaryOperator<SafeRetryClientBuilder> custom) {
    SafeRetryClientBuilder b =
        SafeRetryClient.builder()
            .baseUrl(server.url("/").toString())
            .apiKey(OutboxRelayTest.API_KEY)
            .keyStore(store)
            .clock(time)
            .sleeper(time)
            .jitter(() -> 0.5)
            .breakerPolicy(BreakerPolicy.disabled())
            .retryPolicy(RetryPolicy.defaults().withDeadline(Duration.ofSeconds(55)));
    return custom.apply(b).build();
  }

  /** Enqueues and commits one charge of {@code amount} for {@code intentId} through the client. */
  static BeginResult enqueue(
      TestDatabase database,
      JdbcKeyStore store,
      SafeRetryClient client,
      FakeTime time,
      String intentId,
      long amount,
      RequestOptions options)
      throws SQLException {
    try (Connection c = database.pool().getConnection()) {
      c.setAutoCommit(false);
      BeginResult r =
          JdbcOutbox.of(store)
              .enqueue(
                  c,
                  client,
                  Charges.CREATE,
                  new ChargeCreateParams(amount, "eur", intentId, null),
                  options.withIntentId(intentId),
                  time.instant());
      c.commit();
      return r;
    }
  }

  /** Sets one column of one intent's row behind the relay's back: text, bytes, or SQL NULL. */
  static void set(TestDatabase database, String intentId, String column, Object value)
      throws SQLException {
    String sql =
        "UPDATE "
            + database.table(JdbcKeyStoreBuilder.DEFAULT_TABLE)
            + " SET "
            + column
            + " = "
            + (value == null ? "NULL" : "?")
            + " WHERE intent_id = ?";
    try (Connection c = database.pool().getConnection();
        PreparedStatement ps = c.prepareStatement(sql)) {
      int at = 1;
      if (value instanceof byte[] bytes) {
        ps.setBytes(at++, bytes);
      } else if (value instanceof Long number) {
        ps.setLong(at++, number);
      } else if (value != null) {
        ps.setString(at++, (String) value);
      }
      ps.setString(at, intentId);
      assertThat(ps.executeUpdate()).as(column + " of " + intentId).isEqualTo(1);
    }
  }

  /**
   * Recomputes the row's seal over what the row now holds, as an attacker who holds the seal key
   * could: only checks other than the seal can then stop the row.
   */
  static void reseal(TestDatabase database, JdbcKeyStore store, String intentId)
      throws SQLException {
    IntentRecord record =
        store.find(new IntentScope("default", Charges.CREATE.name()), intentId).orElseThrow();
    RowSeal key = RowSeal.none().withKey(TestDatabase.SEAL_KEY_ID, TestDatabase.sealSecret(), true);
    set(database, intentId, "request_fingerprint", sealWith(database, key, record));
  }

  /** The seal {@code seal}'s current key gives {@code record}'s row as the table now holds it. */
  static String sealWith(TestDatabase database, RowSeal seal, IntentRecord record)
      throws SQLException {
    String sql =
        "SELECT request_method, request_target, request_key_placement, request_headers,"
            + " request_type, request_body FROM "
            + database.table(JdbcKeyStoreBuilder.DEFAULT_TABLE)
            + " WHERE intent_id = ?";
    try (Connection c = database.pool().getConnection();
        PreparedStatement ps = c.prepareStatement(sql)) {
      ps.setString(1, record.intentId());
      try (ResultSet rs = ps.executeQuery()) {
        assertThat(rs.next()).isTrue();
        Map<String, String> headers = new LinkedHashMap<>();
        String text = rs.getString(4);
        for (String line : text == null || text.isEmpty() ? new String[0] : text.split("\n")) {
          int colon = line.indexOf(": ");
          headers.put(line.substring(0, colon), line.substring(colon + 2));
        }
        return seal.seal(
            record,
            rs.getString(1),
            rs.getString(2),
            rs.getString(3),
            headers,
            rs.getString(5),
            rs.getBytes(6));
      }
    }
  }

  /**
   * The rows whose seal verifies under the tests' key, by their intent (state, status and resource
   * id are not sealed and left out), for {@link #resealMoved} after their times move.
   */
  public static java.util.List<IntentRecord> validlySealed(TestDatabase database)
      throws SQLException {
    RowSeal key = RowSeal.none().withKey(TestDatabase.SEAL_KEY_ID, TestDatabase.sealSecret(), true);
    java.util.List<IntentRecord> out = new java.util.ArrayList<>();
    try (Connection c = database.pool().getConnection();
        PreparedStatement ps =
            c.prepareStatement(
                "SELECT tenant, operation, intent_id, idempotency_key, fingerprint, created_at_ns,"
                    + " expires_at_ns, request_fingerprint FROM "
                    + database.table(JdbcKeyStoreBuilder.DEFAULT_TABLE)
                    + " WHERE request_method IS NOT NULL");
        ResultSet rs = ps.executeQuery()) {
      while (rs.next()) {
        IntentRecord r;
        try {
          r = sealedPart(rs);
        } catch (RuntimeException unreadable) {
          continue; // a row a test damaged on purpose stays as it is
        }
        String stored = rs.getString(8);
        try {
          if (stored != null && stored.equals(sealWith(database, key, r))) {
            out.add(r);
          }
        } catch (RuntimeException damaged) {
          // its stored request cannot be read: left as it is
        }
      }
    }
    return out;
  }

  /**
   * Seals anew, under the tests' key, the rows of {@code records} whose stored times a test moved
   * to stand for the database's clock moving: as the SDK sealed them, at their new times.
   */
  public static void resealMoved(TestDatabase database, java.util.List<IntentRecord> records)
      throws SQLException {
    RowSeal key = RowSeal.none().withKey(TestDatabase.SEAL_KEY_ID, TestDatabase.sealSecret(), true);
    String table = database.table(JdbcKeyStoreBuilder.DEFAULT_TABLE);
    String pk = " WHERE tenant = ? AND operation = ? AND intent_id = ?";
    try (Connection c = database.pool().getConnection();
        PreparedStatement read =
            c.prepareStatement(
                "SELECT tenant, operation, intent_id, idempotency_key, fingerprint, created_at_ns,"
                    + " expires_at_ns FROM "
                    + table
                    + pk);
        PreparedStatement write =
            c.prepareStatement("UPDATE " + table + " SET request_fingerprint = ?" + pk)) {
      for (IntentRecord before : records) {
        for (PreparedStatement ps : new PreparedStatement[] {read, write}) {
          int at = ps == write ? 2 : 1;
          ps.setString(at, before.scope().tenant());
          ps.setString(at + 1, before.scope().operation());
          ps.setString(at + 2, before.intentId());
        }
        IntentRecord moved;
        try (ResultSet rs = read.executeQuery()) {
          if (!rs.next()) {
            continue;
          }
          moved = sealedPart(rs);
        }
        write.setString(1, sealWith(database, key, moved));
        write.executeUpdate();
      }
    }
  }

  private static IntentRecord sealedPart(ResultSet rs) throws SQLException {
    return new IntentRecord(
        new IntentScope(rs.getString(1), rs.getString(2)),
        rs.getString(3),
        dev.saferetry.idempotency.IdempotencyKey.of(rs.getString(4)),
        rs.getString(5),
        dev.saferetry.idempotency.IntentState.PENDING,
        nanos(rs.getLong(6)),
        nanos(rs.getLong(7)),
        0,
        null);
  }

  private static java.time.Instant nanos(long ns) {
    return java.time.Instant.ofEpochSecond(
        Math.floorDiv(ns, 1_000_000_000L), Math.floorMod(ns, 1_000_000_000L));
  }

  /** One text column of one intent's row, or null. */
  static String text(TestDatabase database, String intentId, String column) throws SQLException {
    return database.text(
        "SELECT "
            + column
            + " FROM "
            + database.table(JdbcKeyStoreBuilder.DEFAULT_TABLE)
            + " WHERE intent_id = '"
            + intentId
            + "'");
  }
}
