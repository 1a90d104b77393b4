package dev.saferetry.jdbc.outbox;

import static dev.saferetry.jdbc.outbox.OutboxAdminTest.audit;
import static dev.saferetry.jdbc.outbox.OutboxOrderingTest.SCOPE;
import static dev.saferetry.jdbc.outbox.OutboxOrderingTest.commit;
import static dev.saferetry.jdbc.outbox.OutboxParkingTest.withServer;
import static dev.saferetry.jdbc.outbox.OutboxRelayTest.elapse;
import static dev.saferetry.jdbc.outbox.OutboxRelayTest.relay;
import static dev.saferetry.testing.Answers.charge;
import static dev.saferetry.testing.Answers.status;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.saferetry.SafeRetryClient;
import dev.saferetry.idempotency.IntentRefusedException;
import dev.saferetry.idempotency.KeyStoreException;
import dev.saferetry.jdbc.TestDatabase;
import dev.saferetry.jdbc.TestDatabase.Db;
import dev.saferetry.jdbc.internal.outbox.RelayLeases;
import dev.saferetry.jdbc.keystore.JdbcKeyStore;
import dev.saferetry.resilience.RetryPolicy;
import dev.saferetry.testing.FakeTime;
import java.time.Duration;
import java.util.List;
import mockwebserver3.MockWebServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * What an operator's action refuses, and how: an intent a relay may be sending (typed, naming the
 * lease's end), a requeue a relay would only park again, an action id reused for another request,
 * text that would make the audit read as something else; and a row that cannot be read back is
 * named as such without hiding the others.
 */
class OutboxAdminRefusalsTest {

  /** Parks order-1 (key order-42) and free-1 (no key) as TOO_MANY_ATTEMPTS. */
  private static void parkTwo(
      TestDatabase database, JdbcKeyStore store, SafeRetryClient client, FakeTime time)
      throws Exception {
    commit(database, store, client, time, "order-42", "order-1", 1000);
    commit(database, store, client, time, null, "free-1", 10);
    relay(store, client, time).maxClaims(1).build().runOnce();
    assertThat(JdbcOutbox.of(store).held()).hasSize(2);
  }

  private static OutboxIntent read(JdbcKeyStore store, String intentId) {
    return JdbcOutbox.of(store).admin("reader").find(SCOPE, intentId).orElseThrow();
  }

  @ParameterizedTest
  @EnumSource(Db.class)
  void anActionOnAnIntentWhoseLeaseIsLiveIsRefusedNamingTheLeaseEnd(Db db) throws Exception {
    withServer(
        db,
        intent -> charge(),
        (database, store, client, time, wire) -> {
          commit(database, store, client, time, null, "free-1", 10);
          assertThat(RelayLeases.of(store).claim("relay-q", Duration.ofMinutes(5), 10)).hasSize(1);
          OutboxIntent leased = read(store, "free-1");
          OutboxAdmin admin = JdbcOutbox.of(store).admin("dave");
          assertThatThrownBy(() -> admin.abandon(leased, "t-1", "cancel"))
              .isInstanceOfSatisfying(
                  IntentRefusedException.class,
                  e -> {
                    assertThat(e.abandoned()).isFalse();
                    assertThat(e.actor()).contains("relay-q");
                    assertThat(e.at()).contains(leased.leaseExpiresAt());
                  })
              .hasMessageContaining("relay-q")
              .hasMessageContaining(leased.leaseExpiresAt().toString());
          assertThat(read(store, "free-1")).isEqualTo(leased);
          assertThat(audit(database)).isEmpty();
          // Once the lease ended by the database's clock, the same action applies.
          elapse(database, time, Duration.ofMinutes(6));
          assertThat(admin.abandon(read(store, "free-1"), "t-1", "cancel").abandoned()).isTrue();
        });
  }

  @ParameterizedTest
  @EnumSource(Db.class)
  void aRequeuePastTheRelaysMaximumAgeIsRefusedUpFrontNotParkedAgain(Db db) throws Exception {
    try (TestDatabase database = db.open();
        JdbcKeyStore store = database.builder().build();
        MockWebServer server = new MockWebServer()) {
      server.start(0);
      FakeTime time = OutboxRelayTest.atDatabaseTime();
      // Keys kept three days, relays sending for one (their default maximum age).
      try (SafeRetryClient client =
          RelayRows.client(
              server,
              time,
              store,
              b ->
                  b.intentRetention(Duration.ofDays(3))
                      .retryPolicy(
                          RetryPolicy.defaults()
                              .withMaxAttempts(1)
                              .withDeadline(Duration.ofSeconds(30))))) {
        server.enqueue(status(503));
        commit(database, store, client, time, null, "free-1", 10);
        relay(store, client, time).maxClaims(1).build().runOnce();
        elapse(database, time, Duration.ofHours(30));
        OutboxIntent parked = read(store, "free-1");
        assertThat(parked.reason()).isEqualTo(HoldReason.TOO_MANY_ATTEMPTS);
        OutboxAdmin admin = JdbcOutbox.of(store).admin("erin");
        assertThatThrownBy(() -> admin.requeue(parked, "t-1", "try again"))
            .isInstanceOf(IllegalStateException.class)
            .hasMessageContaining("older than the table's maximum age");
        assertThat(read(store, "free-1")).isEqualTo(parked);
        assertThat(audit(database)).isEmpty();
        // Where the table keeps intents two days, the requeue applies and a relay sends it.
        JdbcKeyStore twoDays = OutboxRelayTest.aged(database, Duration.ofDays(2));
        JdbcOutbox.of(twoDays).admin("erin").requeue(parked, "t-2", "try again");
        server.enqueue(charge());
        RelayPass pass = relay(twoDays, client, time).build().runOnce();
        assertThat(pass.succeeded()).isEqualTo(1);
        assertThat(pass.expired()).isZero();
      }
    }
  }

  @ParameterizedTest
  @EnumSource(Db.class)
  void anActionIdNamesOneRequestAndReusingItForAnotherIsRefused(Db db) throws Exception {
    withServer(
        db,
        intent -> status(503),
        (database, store, client, time, wire) -> {
          parkTwo(database, store, client, time);
          OutboxAdmin admin = JdbcOutbox.of(store).admin("frank");
          OutboxIntent a = read(store, "order-1");
          OutboxIntent f = read(store, "free-1");
          OutboxIntent requeued = admin.requeue(a, "t-1", "outage over");
          // The same request again (a retried script): nothing more, the intent as it now is.
          assertThat(admin.requeue(a, "t-1", "outage over")).isEqualTo(requeued);
          // Another intent, another reason, another action, another set: refused, not a no-op.
          assertThatThrownBy(() -> admin.requeue(f, "t-1", "outage over"))
              .isInstanceOf(IllegalArgumentException.class)
              .hasMessageContaining("action id t-1 was already used for REQUEUE")
              .hasMessageContaining("order-1");
          assertThatThrownBy(() -> admin.requeue(a, "t-1", "another reason"))
              .isInstanceOf(IllegalArgumentException.class)
              .hasMessageContaining("with another reason");
          assertThatThrownBy(() -> admin.abandon(f, "t-1", "outage over"))
              .isInstanceOf(IllegalArgumentException.class);
          assertThatThrownBy(() -> admin.requeue(List.of(a, f), "t-1", "outage over"))
              .isInstanceOf(IllegalArgumentException.class);
          assertThat(read(store, "free-1")).isEqualTo(f);
          assertThat(audit(database)).hasSize(1);
        });
  }

  @ParameterizedTest
  @EnumSource(Db.class)
  void aRowThatCannotBeReadBackIsNamedAsAnErrorAndDoesNotHideTheOthers(Db db) throws Exception {
    withServer(
        db,
        intent -> status(503),
        (database, store, client, time, wire) -> {
          parkTwo(database, store, client, time);
          // free-1's expiry is set before its creation: no intent can have that.
          database.execute(
              "UPDATE "
                  + database.table("saferetry_intents")
                  + " SET expires_at_ns = created_at_ns - 1 WHERE intent_id = 'free-1'");
          OutboxAdmin admin = JdbcOutbox.of(store).admin("gina");
          assertThat(admin.list(10))
              .extracting(i -> i.record().intentId())
              .containsExactly("order-1");
          assertThat(admin.whereHeld().list(10))
              .extracting(i -> i.record().intentId())
              .containsExactly("order-1");
          assertThat(JdbcOutbox.of(store).held())
              .extracting(i -> i.record().intentId())
              .containsExactly("order-1");
          assertThat(admin.listUnreadable(10))
              .singleElement()
              .satisfies(
                  e ->
                      assertThat(e)
                          .isInstanceOf(KeyStoreException.class)
                          .hasMessageContaining("free-1")
                          .hasMessageContaining("cannot be read back")
                          .hasMessageContaining("expiresAt precedes createdAt"));
          assertThatThrownBy(() -> admin.find(SCOPE, "free-1"))
              .isInstanceOf(KeyStoreException.class)
              .hasMessageContaining("free-1")
              .hasMessageContaining("cannot be read back")
              .hasMessageNotContaining("SQL state");
          // A hold reason no code knows is named the same way.
          database.execute(
              "UPDATE "
                  + database.table("saferetry_intents")
                  + " SET hold_reason = 42 WHERE intent_id = 'order-1'");
          assertThat(admin.list(10)).isEmpty();
          assertThat(admin.listUnreadable(10))
              .extracting(Throwable::getMessage)
              .anySatisfy(m -> assertThat(m).contains("order-1").contains("hold reason"));
        });
  }

  @Test
  void controlAndFormatCharactersAreRefusedInActorsReasonsAndActionIds() throws Exception {
    withServer(
        Db.H2,
        intent -> status(503),
        (database, store, client, time, wire) -> {
          parkTwo(database, store, client, time);
          OutboxIntent a = read(store, "order-1");
          OutboxAdmin admin = JdbcOutbox.of(store).admin("henry");
          int[] refused = {
            0x202A, 0x202B, 0x202C, 0x202D, 0x202E, 0x2066, 0x2067, 0x2068, 0x2069, 0x200B, 0x200E,
            0x061C, 0xFEFF, 0x2028, 0x2029, 0x0085
          };
          for (int cp : refused) {
            String bad = "ops" + Character.toString(cp) + "nimda";
            String what = String.format("U+%04X", cp);
            assertThatThrownBy(() -> JdbcOutbox.of(store).admin(bad))
                .as(what)
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("actor");
            assertThatThrownBy(() -> admin.requeue(a, "t-1", bad))
                .as(what)
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("why");
            assertThatThrownBy(() -> admin.requeue(a, bad, "why"))
                .as(what)
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("actionId");
          }
          assertThat(read(store, "order-1")).isEqualTo(a);
          assertThat(audit(database)).isEmpty();
          // Letters of any script, emoji and accents remain acceptable.
          String why = "refund \u05e9\u05dc\u05d5\u05dd \u4e2d\u6587 e\u0301 \uD83D\uDE00";
          assertThat(JdbcOutbox.of(store).admin("j\u00f6rg").requeue(a, "t-1", why).isQueued())
              .isTrue();
        });
  }
}
