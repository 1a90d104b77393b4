package dev.saferetry.jdbc.outbox;

import static dev.saferetry.jdbc.outbox.OutboxRelayTest.answer;
import static dev.saferetry.jdbc.outbox.OutboxRelayTest.relay;
import static dev.saferetry.jdbc.outbox.OutboxRelayTest.withRelay;
import static dev.saferetry.testing.Answers.charge;
import static dev.saferetry.testing.Answers.drain;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.saferetry.ProviderPreset;
import dev.saferetry.RequestOptions;
import dev.saferetry.SafeRetryClient;
import dev.saferetry.examples.payments.Charges;
import dev.saferetry.idempotency.IdempotencyKey;
import dev.saferetry.idempotency.IntentRecord;
import dev.saferetry.idempotency.IntentScope;
import dev.saferetry.idempotency.IntentState;
import dev.saferetry.idempotency.KeyPlacement;
import dev.saferetry.idempotency.StoredRequest;
import dev.saferetry.jdbc.TestDatabase;
import dev.saferetry.jdbc.TestDatabase.Db;
import dev.saferetry.jdbc.keystore.JdbcKeyStore;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import mockwebserver3.RecordedRequest;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The relay sends each row's key exactly where the client that enqueued it put it — whatever the
 * relay's own client does — or holds the row; no request ever leaves without the intent's key.
 */
class OutboxRelayKeyPlacementTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final IntentScope SCOPE = new IntentScope("default", Charges.CREATE.name());

  /** Where clients put keys: the default header, another header, a quoted one, the body. */
  private static final List<KeyPlacement> PLACEMENTS =
      List.of(
          KeyPlacement.header(),
          KeyPlacement.header("PayPal-Request-Id"),
          KeyPlacement.structuredHeader("Idempotency-Key"),
          KeyPlacement.bodyField("idempotency_key"));

  /** Asserts that {@code r} carries {@code key} as {@code p} says, and in no other place. */
  private static void carriesOnly(RecordedRequest r, KeyPlacement p, String key) throws Exception {
    String header = r.getHeaders().get("Idempotency-Key");
    String payPal = r.getHeaders().get("PayPal-Request-Id");
    JsonNode field = JSON.readTree(r.getBody().utf8()).get("idempotency_key");
    if (p.inBody()) {
      assertThat(field).isNotNull();
      assertThat(field.asText()).isEqualTo(key);
      assertThat(header).isNull();
      assertThat(payPal).isNull();
    } else {
      assertThat(field).isNull();
      String value = p.structured() ? "\"" + key + "\"" : key;
      assertThat(r.getHeaders().get(p.name())).isEqualTo(value);
      assertThat(p.name().equals("PayPal-Request-Id") ? header : payPal).isNull();
    }
  }

  @ParameterizedTest
  @EnumSource(Db.class)
  void aHeaderKeyRowIsSentWithItsHeaderByARelayWhoseClientPutsKeysInTheBody(Db db)
      throws Exception {
    withRelay(
        db,
        (database, store, server, time, client) -> {
          for (int n = 1; n <= 4; n++) {
            RelayRows.enqueue(
                database, store, client, time, "order-" + n, 1000L * n, RequestOptions.none());
          }
          List<IntentRecord> intents = client.pendingIntents();
          answer(server, n -> charge());
          try (SafeRetryClient square =
              RelayRows.client(server, time, store, b -> b.preset(ProviderPreset.square()))) {
            RelayPass pass = relay(store, square, time).build().runOnce();
            assertThat(pass.succeeded()).isEqualTo(4);
          }
          List<RecordedRequest> wire = drain(server);
          assertThat(wire).hasSize(4);
          for (int i = 0; i < 4; i++) {
            carriesOnly(wire.get(i), KeyPlacement.header(), intents.get(i).key().value());
          }
        });
  }

  @ParameterizedTest
  @EnumSource(Db.class)
  void aBodyKeyRowIsSentWithItsStoredBytesAndNoHeaderKeyByAHeaderRelay(Db db) throws Exception {
    withRelay(
        db,
        (database, store, server, time, client) -> {
          try (SafeRetryClient square =
              RelayRows.client(server, time, store, b -> b.preset(ProviderPreset.square()))) {
            RelayRows.enqueue(database, store, square, time, "order-1", 100, RequestOptions.none());
          }
          IntentRecord intent = client.pendingIntents().get(0);
          server.enqueue(charge());
          assertThat(relay(store, client, time).build().runOnce().succeeded()).isEqualTo(1);
          RecordedRequest r = drain(server).get(0);
          carriesOnly(r, KeyPlacement.bodyField("idempotency_key"), intent.key().value());
          assertThat(JSON.readTree(r.getBody().utf8()).get("amount").asLong()).isEqualTo(100);
        });
  }

  @ParameterizedTest
  @EnumSource(
      value = Db.class,
      names = {"H2"})
  void everyPlacementIsSentAsRecordedByARelayOfEveryPlacement(Db db) throws Exception {
    withRelay(
        db,
        (database, store, server, time, client) -> {
          answer(server, n -> charge());
          Map<String, KeyPlacement> recorded = new HashMap<>();
          List<SafeRetryClient> clients = new ArrayList<>();
          for (KeyPlacement p : PLACEMENTS) {
            clients.add(RelayRows.client(server, time, store, b -> b.keyPlacement(p)));
          }
          for (int relayed = 0; relayed < PLACEMENTS.size(); relayed++) {
            for (int enqueued = 0; enqueued < PLACEMENTS.size(); enqueued++) {
              String id = "order-" + enqueued + "-by-" + relayed;
              RelayRows.enqueue(
                  database, store, clients.get(enqueued), time, id, 500, RequestOptions.none());
              recorded.put(id, PLACEMENTS.get(enqueued));
            }
            RelayPass pass = relay(store, clients.get(relayed), time).build().runOnce();
            assertThat(pass.succeeded()).as("relay " + PLACEMENTS.get(relayed)).isEqualTo(4);
          }
          List<RecordedRequest> wire = drain(server);
          assertThat(wire).hasSize(16);
          for (RecordedRequest r : wire) {
            String id = JSON.readTree(r.getBody().utf8()).get("description").asText();
            IntentScope scope =
                new IntentScope("default", dev.saferetry.examples.payments.Charges.CREATE.name());
            String key = store.find(scope, id).orElseThrow().key().value();
            carriesOnly(r, recorded.get(id), key);
          }
          for (SafeRetryClient c : clients) {
            c.close();
          }
        });
  }

  @ParameterizedTest
  @EnumSource(Db.class)
  void aRowWhosePlacementColumnIsMissingOrGarbageIsHeldAndNothingIsSent(Db db) throws Exception {
    withRelay(
        db,
        (database, store, server, time, client) -> {
          List<String> garbage =
              new ArrayList<>(
                  List.of(
                      "garbage",
                      "",
                      "header:",
                      "header: ",
                      "header:Bad Name",
                      "header:X-Request-Id",
                      "header:Authorization",
                      "header:idempotency-key", // another spelling: not what was recorded
                      "HEADER:Idempotency-Key",
                      "structured-header:Idempotency-Key",
                      "header:PayPal-Request-Id",
                      "body-field:",
                      "body-field:idempotency_key",
                      "header:Idempotency-Key\n",
                      "x".repeat(300)));
          garbage.add(null);
          for (int i = 0; i < garbage.size(); i++) {
            RelayRows.enqueue(
                database, store, client, time, "bad-" + i, 1000, RequestOptions.none());
            RelayRows.set(database, "bad-" + i, "request_key_placement", garbage.get(i));
          }
          RelayRows.enqueue(database, store, client, time, "good", 1000, RequestOptions.none());
          answer(server, n -> charge());
          RelayPass pass = relay(store, client, time).batchSize(100).build().runOnce();

          assertThat(pass.held()).isEqualTo(garbage.size());
          assertThat(pass.succeeded()).isEqualTo(1);
          List<RecordedRequest> wire = drain(server);
          assertThat(wire).hasSize(1);
          assertThat(JSON.readTree(wire.get(0).getBody().utf8()).get("description").asText())
              .isEqualTo("good");
          List<OutboxIntent> held = JdbcOutbox.of(store).held();
          assertThat(held).hasSize(garbage.size());
          assertThat(held)
              .allSatisfy(
                  h -> {
                    assertThat(h.reason()).isEqualTo(HoldReason.TAMPERED);
                    assertThat(h.record().state()).isEqualTo(IntentState.PENDING);
                    assertThat(h.note()).isNotBlank();
                  });
          OutboxRelayTest.elapse(database, time, Duration.ofHours(1));
          assertThat(relay(store, client, time).build().runOnce().claimed()).isZero();
          assertThat(server.getRequestCount()).isEqualTo(1);
        });
  }

  @ParameterizedTest
  @EnumSource(Db.class)
  void aPlacementRewrittenWithItsFingerprintRecomputedStillNeverSendsARequestWithoutTheKey(Db db)
      throws Exception {
    withRelay(
        db,
        (database, store, server, time, client) -> {
          List<String> rewritten =
              List.of(
                  "header:idempotency-key",
                  "structured-header:Idempotency-Key",
                  "header:PayPal-Request-Id",
                  "header:X-Request-Id",
                  "header:Authorization",
                  "body-field:idempotency_key",
                  "body-field:amount",
                  "header:");
          for (int i = 0; i < rewritten.size(); i++) {
            RelayRows.enqueue(database, store, client, time, "p-" + i, 1000, RequestOptions.none());
            RelayRows.set(database, "p-" + i, "request_key_placement", rewritten.get(i));
            RelayRows.reseal(database, store, "p-" + i);
          }
          answer(server, n -> charge());
          RelayPass pass;
          try (SafeRetryClient square =
              RelayRows.client(server, time, store, b -> b.preset(ProviderPreset.square()))) {
            pass = relay(store, square, time).batchSize(100).build().runOnce();
          }
          List<RecordedRequest> wire = drain(server);
          assertThat(pass.succeeded()).isEqualTo(wire.size()).isEqualTo(3);
          assertThat(pass.held()).isEqualTo(rewritten.size() - 3);
          for (RecordedRequest r : wire) {
            String id = JSON.readTree(r.getBody().utf8()).get("description").asText();
            String placement = RelayRows.text(database, id, "request_key_placement");
            String name = placement.substring(placement.indexOf(':') + 1);
            KeyPlacement p =
                placement.startsWith("structured")
                    ? KeyPlacement.structuredHeader(name)
                    : KeyPlacement.header(name);
            carriesOnly(r, p, store.find(SCOPE, id).orElseThrow().key().value());
          }
        });
  }

  @ParameterizedTest
  @EnumSource(
      value = Db.class,
      names = {"H2"})
  void aBodyThatDoesNotCarryTheIntentsKeyExactlyOnceIsNeverStored(Db db) throws Exception {
    try (TestDatabase database = db.open();
        JdbcKeyStore store = database.builder().build();
        Connection c = database.pool().getConnection()) {
      c.setAutoCommit(false);
      IdempotencyKey key = IdempotencyKey.of("key-0123456789");
      IntentRecord candidate =
          IntentRecord.pending(SCOPE, "order-1", key, "fp", Instant.now(), Duration.ofHours(24));
      String json = "application/json";
      String form = "application/x-www-form-urlencoded";
      List<String[]> bad =
          List.of(
              new String[] {json, "{\"amount\":100}"},
              new String[] {json, "{\"amount\":100,\"idempotency_key\":\"key-other\"}"},
              new String[] {
                json, "{\"idempotency_key\":\"key-0123456789\",\"idempotency_key\":\"x\"}"
              },
              new String[] {
                json, "{\"idempotency_key\":\"key-0123456789\",\"Idempotency_Key\":\"x\"}"
              },
              new String[] {json, "{\"idempotency_key\":\"key-0123456789\"} {\"a\":1}"},
              new String[] {json, "{\"idempotency_key\":\"key-0123456789\",}"},
              new String[] {json, "{\"idempotency_key\":[\"key-0123456789\"]}"},
              new String[] {json, "{\"nested\":{\"idempotency_key\":\"key-0123456789\"}}"},
              new String[] {json, "[{\"idempotency_key\":\"key-0123456789\"}]"},
              new String[] {json, "{\"idempotency_key\":\"key-0123456789\" /* c */}"},
              new String[] {
                json + "; charset=iso-8859-1", "{\"idempotency_key\":\"key-0123456789\"}"
              },
              new String[] {"text/plain", "{\"idempotency_key\":\"key-0123456789\"}"},
              new String[] {form, "amount=100"},
              new String[] {form, "idempotency_key=key-0123456789&idempotency_key=x"},
              new String[] {form, "idempotency_key=key-0123456789&idempotency_key%5Bx%5D=y"},
              new String[] {form, "idempotency_key=key-0123456789&IDEMPOTENCY_KEY=y"},
              new String[] {form, "idempotency_key=key-012345678%"});
      for (String[] b : bad) {
        byte[] bytes = b[1].getBytes(StandardCharsets.UTF_8);
        StoredRequest request =
            new StoredRequest(
                "POST",
                "v2/payments",
                KeyPlacement.bodyField("idempotency_key"),
                Map.of(),
                b[0],
                bytes);
        assertThatThrownBy(() -> JdbcOutbox.of(store).enqueue(c, candidate, request, Instant.now()))
            .as(b[0] + " " + b[1])
            .isInstanceOf(IllegalArgumentException.class)
            .hasMessageNotContaining("key-0123456789");
      }
      byte[] notUtf8 = {'{', '"', 'a', '"', ':', '"', (byte) 0xC0, (byte) 0xAE, '"', '}'};
      StoredRequest latin =
          new StoredRequest(
              "POST", "v2/payments", KeyPlacement.bodyField("a"), Map.of(), json, notUtf8);
      assertThatThrownBy(() -> JdbcOutbox.of(store).enqueue(c, candidate, latin, Instant.now()))
          .isInstanceOf(IllegalArgumentException.class);
      for (String[] good :
          List.of(
              new String[] {json, "{\"amount\":1,\"idempotency_key\":\"key-0123456789\"}"},
              new String[] {"application/vnd.api+json", "{\"idempotency_key\":\"key-0123456789\"}"},
              new String[] {form, "amount=1&idempotency_key=key%2D0123456789"})) {
        StoredRequest request =
            new StoredRequest(
                "POST",
                "v2/payments",
                KeyPlacement.bodyField("idempotency_key"),
                Map.of(),
                good[0],
                good[1].getBytes(StandardCharsets.UTF_8));
        assertThat(JdbcOutbox.of(store).enqueue(c, candidate, request, Instant.now()).created())
            .as(good[1])
            .isTrue();
        c.rollback();
      }
      c.rollback();
      assertThat(store.pending()).isEmpty();
    }
  }
}
