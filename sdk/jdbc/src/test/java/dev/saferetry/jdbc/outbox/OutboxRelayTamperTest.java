package dev.saferetry.jdbc.outbox;

import static dev.saferetry.jdbc.outbox.OutboxOrderingTest.SCOPE;
import static dev.saferetry.jdbc.outbox.OutboxRelayTest.answer;
import static dev.saferetry.jdbc.outbox.OutboxRelayTest.relay;
import static dev.saferetry.jdbc.outbox.OutboxRelayTest.withRelay;
import static dev.saferetry.testing.Answers.charge;
import static dev.saferetry.testing.Answers.drain;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.saferetry.RequestOptions;
import dev.saferetry.SafeRetryClient;
import dev.saferetry.idempotency.IdempotencyKey;
import dev.saferetry.idempotency.IntentState;
import dev.saferetry.idempotency.KeyStoreException;
import dev.saferetry.jdbc.TestDatabase;
import dev.saferetry.jdbc.TestDatabase.Db;
import dev.saferetry.jdbc.keystore.JdbcKeyStore;
import dev.saferetry.jdbc.keystore.JdbcKeyStoreBuilder;
import dev.saferetry.testing.FakeTime;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import mockwebserver3.MockWebServer;
import mockwebserver3.RecordedRequest;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A row changed in the table after it was enqueued — its body, headers, target, method, key, or
 * anything else that decides what is sent — is held as tampered and never sent; an untouched row
 * still is.
 */
class OutboxRelayTamperTest {
  private static final String TABLE = JdbcKeyStoreBuilder.DEFAULT_TABLE;

  /** Each change an attacker with write access to the table could make to one row. */
  private static Map<String, Object[]> tampering() {
    byte[] bigger =
        "{\"amount\":99999999,\"currency\":\"eur\",\"description\":\"x\"}"
            .getBytes(StandardCharsets.UTF_8);
    Map<String, Object[]> changes = new LinkedHashMap<>();
    changes.put("body", new Object[] {"request_body", bigger});
    changes.put("body-null", new Object[] {"request_body", null});
    changes.put("body-empty", new Object[] {"request_body", new byte[0]});
    changes.put("account", new Object[] {"request_headers", "Stripe-Account: acct_attacker\n"});
    changes.put("account-case", new Object[] {"request_headers", "stripe-account: acct_1\n"});
    changes.put("headers-null", new Object[] {"request_headers", null});
    changes.put("headers-garbage", new Object[] {"request_headers", "no colon here"});
    changes.put(
        "headers-twice",
        new Object[] {"request_headers", "Stripe-Account: acct_1\nStripe-Account: acct_2\n"});
    changes.put(
        "headers-credential", new Object[] {"request_headers", "Authorization: Bearer sk_x\n"});
    changes.put("target", new Object[] {"request_target", "v1/refunds"});
    changes.put("target-escape", new Object[] {"request_target", "v1/%2e%2e/internal/pay"});
    changes.put("target-null", new Object[] {"request_target", null});
    changes.put("method", new Object[] {"request_method", "PUT"});
    changes.put("method-lower", new Object[] {"request_method", "post"});
    changes.put("method-null", new Object[] {"request_method", null});
    changes.put("type", new Object[] {"request_type", "application/x-www-form-urlencoded"});
    changes.put("type-null", new Object[] {"request_type", null});
    changes.put("key", new Object[] {"idempotency_key", IdempotencyKey.random().value()});
    changes.put("fingerprint", new Object[] {"fingerprint", "another-intent"});
    changes.put("seal", new Object[] {"request_fingerprint", "0".repeat(64)});
    changes.put("seal-null", new Object[] {"request_fingerprint", null});
    changes.put("placement", new Object[] {"request_key_placement", "header:PayPal-Request-Id"});
    return changes;
  }

  @ParameterizedTest
  @EnumSource(Db.class)
  void aRowChangedInTheTableAfterEnqueueIsHeldTamperedAndNeverSent(Db db) throws Exception {
    withRelay(
        db,
        (database, store, server, time, client) -> {
          Map<String, Object[]> changes = tampering();
          for (String id : changes.keySet()) {
            enqueue(database, store, client, time, id);
          }
          enqueue(database, store, client, time, "untouched");
          enqueue(database, store, client, time, "rewritten-unchanged");
          for (Map.Entry<String, Object[]> change : changes.entrySet()) {
            Object[] c = change.getValue();
            RelayRows.set(database, change.getKey(), (String) c[0], c[1]);
          }
          // Rewriting a row with the values it already holds changes nothing that is sent.
          database.execute(
              "UPDATE "
                  + database.table(TABLE)
                  + " SET request_body = request_body, request_headers = request_headers,"
                  + " request_target = request_target WHERE intent_id = 'rewritten-unchanged'");

          answer(server, n -> charge());
          RelayPass pass = relay(store, client, time).batchSize(100).build().runOnce();

          assertThat(pass.held()).isEqualTo(changes.size());
          assertThat(pass.claimed()).isEqualTo(2);
          assertThat(pass.succeeded()).isEqualTo(2);
          List<String> sent = descriptions(server);
          assertThat(sent).containsExactlyInAnyOrder("untouched", "rewritten-unchanged");
          List<OutboxIntent> held = JdbcOutbox.of(store).held();
          assertThat(held)
              .extracting(h -> h.record().intentId())
              .containsExactlyInAnyOrderElementsOf(changes.keySet());
          assertThat(held)
              .allSatisfy(
                  h -> {
                    assertThat(h.reason()).isEqualTo(HoldReason.TAMPERED);
                    assertThat(h.record().state()).isEqualTo(IntentState.PENDING);
                    assertThat(h.note())
                        .isNotBlank()
                        .doesNotContain("99999999", "acct_attacker", "sk_x", "refunds");
                  });

          OutboxRelayTest.elapse(database, time, Duration.ofHours(1));
          assertThat(relay(store, client, time).build().runOnce().claimed()).isZero();
          assertThat(server.getRequestCount()).isEqualTo(2);
        });
  }

  @ParameterizedTest
  @EnumSource(Db.class)
  void aRowWhoseRecordCannotBeReadBackIsHeldAndDoesNotStopTheRelay(Db db) throws Exception {
    withRelay(
        db,
        (database, store, server, time, client) -> {
          enqueue(database, store, client, time, "bad-key");
          enqueue(database, store, client, time, "good");
          RelayRows.set(database, "bad-key", "idempotency_key", "not a key\u0001");
          answer(server, n -> charge());

          RelayPass pass = relay(store, client, time).build().runOnce();
          assertThat(pass.held()).isEqualTo(1);
          assertThat(pass.succeeded()).isEqualTo(1);
          assertThat(descriptions(server)).containsExactly("good");
          assertThat(RelayRows.text(database, "bad-key", "hold_reason")).isEqualTo("3");
          // Listed as what it is, not allowed to hide the other held intents.
          assertThat(JdbcOutbox.of(store).held()).isEmpty();
          assertThat(JdbcOutbox.of(store).admin("x").listUnreadable(10))
              .singleElement()
              .satisfies(e -> assertThat(e).hasMessageContaining("bad-key"));
          assertThatThrownBy(() -> JdbcOutbox.of(store).admin("x").find(SCOPE, "bad-key"))
              .isInstanceOf(KeyStoreException.class)
              .hasMessageContaining("cannot be read back");
          assertThat(relay(store, client, time).build().runOnce().claimed()).isZero();
        });
  }

  private static void enqueue(
      TestDatabase database, JdbcKeyStore store, SafeRetryClient client, FakeTime time, String id)
      throws Exception {
    RelayRows.enqueue(
        database,
        store,
        client,
        time,
        id,
        1000,
        RequestOptions.none().withHeader("Stripe-Account", "acct_1"));
  }

  /** The description of each charge that reached the server: the intent id that sent it. */
  static List<String> descriptions(MockWebServer server) throws Exception {
    List<String> out = new ArrayList<>();
    for (RecordedRequest r : drain(server)) {
      String body = r.getBody().utf8();
      int at = body.indexOf("\"description\":\"") + 15;
      out.add(body.substring(at, body.indexOf('"', at)));
    }
    return out;
  }
}
