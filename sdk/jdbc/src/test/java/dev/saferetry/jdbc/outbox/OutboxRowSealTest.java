package dev.saferetry.jdbc.outbox;

import static dev.saferetry.jdbc.outbox.OutboxRelayTest.answer;
import static dev.saferetry.jdbc.outbox.OutboxRelayTest.relay;
import static dev.saferetry.jdbc.outbox.OutboxRelayTest.withRelay;
import static dev.saferetry.testing.Answers.charge;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.saferetry.RequestOptions;
import dev.saferetry.SafeRetryClient;
import dev.saferetry.idempotency.IntentRecord;
import dev.saferetry.idempotency.IntentScope;
import dev.saferetry.idempotency.IntentState;
import dev.saferetry.jdbc.TestDatabase;
import dev.saferetry.jdbc.TestDatabase.Db;
import dev.saferetry.jdbc.internal.keystore.RowSeal;
import dev.saferetry.jdbc.keystore.JdbcKeyStore;
import dev.saferetry.jdbc.keystore.JdbcKeyStoreBuilder;
import dev.saferetry.testing.FakeTime;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Outbox rows carry a keyed seal the database does not hold: a writer with access to the table who
 * changes a row and recomputes the old unkeyed SHA-256 seal, or seals it under a key id or a key
 * the relay does not hold, gets nothing sent; keys rotate; a relay or enqueue without a key is
 * refused.
 */
class OutboxRowSealTest {
  private static final IntentScope SCOPE = OutboxOrderingTest.SCOPE;
  private static final byte[] BIGGER =
      "{\"amount\":99999999,\"currency\":\"eur\",\"description\":\"forged\"}"
          .getBytes(StandardCharsets.UTF_8);
  private static final byte[] OLD =
      "an-old-seal-key-of-32-bytes-----".getBytes(StandardCharsets.UTF_8);
  private static final byte[] NEW =
      "a-new-seal-key-of-32-bytes------".getBytes(StandardCharsets.UTF_8);

  private static void enqueue(
      TestDatabase database, JdbcKeyStore store, SafeRetryClient client, FakeTime time, String id)
      throws Exception {
    RelayRows.enqueue(database, store, client, time, id, 1000, RequestOptions.none());
  }

  /**
   * The unkeyed seal rows carried before they were keyed, recomputed over what the row now holds,
   * as a writer who read the SDK's earlier source would: SHA-256 over the intent and the request.
   */
  static String unkeyedSeal(TestDatabase database, JdbcKeyStore store, String intentId)
      throws Exception {
    IntentRecord r = store.find(SCOPE, intentId).orElseThrow();
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    out.writeBytes("saferetry-stored-request/1\n".getBytes(StandardCharsets.UTF_8));
    try (Connection c = database.pool().getConnection();
        PreparedStatement ps =
            c.prepareStatement(
                "SELECT request_method, request_target, request_key_placement, request_headers,"
                    + " request_type, request_body FROM "
                    + database.table(JdbcKeyStoreBuilder.DEFAULT_TABLE)
                    + " WHERE intent_id = ?")) {
      ps.setString(1, intentId);
      try (ResultSet rs = ps.executeQuery()) {
        assertThat(rs.next()).isTrue();
        Map<String, String> headers = new LinkedHashMap<>();
        String text = rs.getString(4);
        for (String line : text == null || text.isEmpty() ? new String[0] : text.split("\n")) {
          int colon = line.indexOf(": ");
          headers.put(line.substring(0, colon), line.substring(colon + 2));
        }
        for (String f :
            new String[] {
              r.scope().tenant(), r.scope().operation(), r.intentId(), r.key().value(),
              r.fingerprint(), rs.getString(1), rs.getString(2), rs.getString(3),
              Integer.toString(headers.size())
            }) {
          field(out, f.getBytes(StandardCharsets.UTF_8));
        }
        headers.forEach(
            (n, v) -> {
              field(out, n.getBytes(StandardCharsets.UTF_8));
              field(out, v.getBytes(StandardCharsets.UTF_8));
            });
        String type = rs.getString(5);
        field(out, type == null ? null : type.getBytes(StandardCharsets.UTF_8));
        field(out, rs.getBytes(6));
      }
    }
    return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(out.toByteArray()));
  }

  private static void field(ByteArrayOutputStream out, byte[] value) {
    if (value == null) {
      out.write('-');
    } else {
      out.writeBytes((value.length + ":").getBytes(StandardCharsets.US_ASCII));
      out.writeBytes(value);
    }
    out.write('\n');
  }

  private static JdbcKeyStore store(TestDatabase database, String keyId, byte[] key) {
    return JdbcKeyStore.builder()
        .dataSource(database.pool())
        .schema(database.schema)
        .outboxSealKey(keyId, key)
        .build();
  }

  @ParameterizedTest
  @EnumSource(Db.class)
  void aRowWhoseBodyIsChangedAndWhoseSealIsForgedWithoutTheKeyIsHeldNeverSent(Db db)
      throws Exception {
    withRelay(
        db,
        (database, store, server, time, client) -> {
          for (String id : new String[] {"unkeyed", "guessed-key", "other-key-id", "untouched"}) {
            enqueue(database, store, client, time, id);
          }
          // The old unkeyed seal, recomputed over the forged body: what made this row sendable.
          RelayRows.set(database, "unkeyed", "request_body", BIGGER);
          RelayRows.set(
              database, "unkeyed", "request_fingerprint", unkeyedSeal(database, store, "unkeyed"));
          // A keyed seal under the right key id with a key the writer guessed.
          RelayRows.set(database, "guessed-key", "request_body", BIGGER);
          RowSeal guessed = RowSeal.none().withKey(TestDatabase.SEAL_KEY_ID, NEW, true);
          RelayRows.set(
              database,
              "guessed-key",
              "request_fingerprint",
              RelayRows.sealWith(
                  database, guessed, store.find(SCOPE, "guessed-key").orElseThrow()));
          // A seal under a key id the relay is not configured with.
          RelayRows.set(database, "other-key-id", "request_body", BIGGER);
          RowSeal other = RowSeal.none().withKey("attacker", NEW, true);
          RelayRows.set(
              database,
              "other-key-id",
              "request_fingerprint",
              RelayRows.sealWith(database, other, store.find(SCOPE, "other-key-id").orElseThrow()));

          answer(server, n -> charge());
          RelayPass pass = relay(store, client, time).batchSize(10).build().runOnce();

          assertThat(pass.held()).isEqualTo(3);
          assertThat(pass.succeeded()).isEqualTo(1);
          assertThat(OutboxRelayTamperTest.descriptions(server)).containsExactly("untouched");
          Map<String, OutboxIntent> held = new LinkedHashMap<>();
          JdbcOutbox.of(store).held().forEach(h -> held.put(h.record().intentId(), h));
          assertThat(held.keySet())
              .containsExactlyInAnyOrder("unkeyed", "guessed-key", "other-key-id");
          assertThat(held.values())
              .allSatisfy(
                  h -> {
                    assertThat(h.reason()).isEqualTo(HoldReason.TAMPERED);
                    assertThat(h.record().state()).isEqualTo(IntentState.PENDING);
                    assertThat(h.note()).doesNotContain("99999999", "seal-key", "32-bytes");
                  });
          assertThat(held.get("unkeyed").note()).contains("unkeyed seal");
          assertThat(held.get("guessed-key").note())
              .contains("does not match the seal")
              .contains(TestDatabase.SEAL_KEY_ID);
          assertThat(held.get("other-key-id").note())
              .contains("key id attacker")
              .contains("not configured");
          assertThat(relay(store, client, time).build().runOnce().claimed()).isZero();
          assertThat(server.getRequestCount()).isEqualTo(1);
        });
  }

  @ParameterizedTest
  @EnumSource(
      value = Db.class,
      names = {"H2", "POSTGRESQL"})
  void keysRotateRowsOfARetiredKeyStillSendAndAnUnknownKeyIdIsHeld(Db db) throws Exception {
    withRelay(
        db,
        (database, unused, server, time, unusedClient) -> {
          try (JdbcKeyStore old = store(database, "k1", OLD);
              SafeRetryClient oldClient = RelayRows.client(server, time, old, b -> b)) {
            enqueue(database, old, oldClient, time, "sealed-k1");
            assertThat(RelayRows.text(database, "sealed-k1", "request_fingerprint"))
                .startsWith("v2.k1.")
                .hasSizeLessThanOrEqualTo(64);
          }
          try (JdbcKeyStore rotated =
                  JdbcKeyStore.builder()
                      .dataSource(database.pool())
                      .schema(database.schema)
                      .outboxSealKey("k2", NEW)
                      .outboxRetiredSealKey("k1", OLD)
                      .build();
              SafeRetryClient client = RelayRows.client(server, time, rotated, b -> b);
              JdbcKeyStore onlyOld = store(database, "k1", OLD);
              SafeRetryClient oldClient = RelayRows.client(server, time, onlyOld, b -> b)) {
            enqueue(database, rotated, client, time, "sealed-k2");
            assertThat(RelayRows.text(database, "sealed-k2", "request_fingerprint"))
                .startsWith("v2.k2.");
            answer(server, n -> charge());

            // A relay that knows only the old key sends the old row and holds the new one.
            RelayPass old = relay(onlyOld, oldClient, time).batchSize(10).build().runOnce();
            assertThat(old.succeeded()).isEqualTo(1);
            assertThat(old.held()).isEqualTo(1);
            assertThat(OutboxRelayTamperTest.descriptions(server)).containsExactly("sealed-k1");
            OutboxIntent held = JdbcOutbox.of(rotated).held().get(0);
            assertThat(held.record().intentId()).isEqualTo("sealed-k2");
            assertThat(held.note()).contains("key id k2").contains("not configured");
          }
          // The rotated relay sends an old-key row it is given.
          try (JdbcKeyStore old = store(database, "k1", OLD);
              SafeRetryClient oldClient = RelayRows.client(server, time, old, b -> b);
              JdbcKeyStore rotated =
                  JdbcKeyStore.builder()
                      .dataSource(database.pool())
                      .schema(database.schema)
                      .outboxSealKey("k2", NEW)
                      .outboxRetiredSealKey("k1", OLD)
                      .build();
              SafeRetryClient client = RelayRows.client(server, time, rotated, b -> b)) {
            enqueue(database, old, oldClient, time, "late-k1");
            RelayPass pass = relay(rotated, client, time).batchSize(10).build().runOnce();
            assertThat(pass.succeeded()).isEqualTo(1);
            assertThat(pass.held()).isZero();
            assertThat(OutboxRelayTamperTest.descriptions(server)).containsExactly("late-k1");
          }
        });
  }

  @Test
  void withoutASealKeyARelayIsNotBuiltAndNothingIsEnqueued() throws Exception {
    withRelay(
        Db.H2,
        (database, keyed, server, time, keyedClient) -> {
          try (JdbcKeyStore bare =
                  JdbcKeyStore.builder()
                      .dataSource(database.pool())
                      .schema(database.schema)
                      .build();
              SafeRetryClient client = RelayRows.client(server, time, bare, b -> b)) {
            assertThatThrownBy(() -> relay(bare, client, time).build())
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("outboxSealKey");
            assertThatThrownBy(() -> enqueue(database, bare, client, time, "unsealed"))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("outboxSealKey");
            assertThat(bare.find(SCOPE, "unsealed")).isEmpty();
          }
        });
  }

  @Test
  void badKeysAreRefusedAndNoSecretIsEverShown() {
    JdbcKeyStoreBuilder b = JdbcKeyStore.builder().dataSource(new org.h2.jdbcx.JdbcDataSource());
    byte[] shortKey = "short-secret-31-bytes-----------".substring(0, 31).getBytes();
    assertThatThrownBy(() -> b.outboxSealKey("k1", shortKey))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("at least 32 bytes")
        .hasMessageNotContaining("short-secret");
    for (String id : new String[] {"", "k.1", "k 1", "a-key-id-of-17-ch", "ключ"}) {
      assertThatThrownBy(() -> b.outboxSealKey(id, NEW))
          .as(id)
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("keyId");
    }
    assertThatThrownBy(() -> b.outboxSealKey(null, NEW)).isInstanceOf(NullPointerException.class);
    assertThatThrownBy(() -> b.outboxSealKey("k1", null)).isInstanceOf(NullPointerException.class);
    b.outboxSealKey("k1", NEW);
    assertThatThrownBy(() -> b.outboxSealKey("k2", OLD))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("two current seal keys");
    assertThatThrownBy(() -> b.outboxRetiredSealKey("k1", OLD))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("two secrets")
        .hasMessageNotContaining("seal-key");
    // The secret given is copied: changing the caller's array changes no key.
    byte[] mine = NEW.clone();
    RowSeal seal = RowSeal.none().withKey("k9", mine, true);
    java.util.Arrays.fill(mine, (byte) 0);
    assertThat(seal.toString()).isEqualTo("RowSeal[current k9, keys [k9]]");
    assertThat(seal.withKey("k9", NEW, true).toString()).doesNotContain("seal-key");
  }
}
