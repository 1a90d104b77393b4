package dev.saferetry.examples;

import static java.util.Base64.getDecoder;

import dev.saferetry.RequestOptions;
import dev.saferetry.SafeRetryClient;
import dev.saferetry.jdbc.keystore.JdbcKeyStore;
import dev.saferetry.jdbc.outbox.JdbcOutbox;
import dev.saferetry.jdbc.outbox.OutboxAdmin;
import dev.saferetry.jdbc.outbox.OutboxRelay;
import dev.saferetry.payments.ChargeCreateParams;
import dev.saferetry.payments.ChargesApi;
import dev.saferetry.resilience.RetryPolicy;
import dev.saferetry.testing.provider.FakeProvider;
import dev.saferetry.testing.provider.Fault;
import java.sql.Connection;
import java.time.Duration;
import java.time.Instant;
import org.h2.jdbcx.JdbcDataSource;

/**
 * An operator resolves a parked outbox intent: two charges of one order share an ordering key and
 * go one at a time; while the fake provider is down the first is parked and the second waits; the
 * operator requeues it (once per action id) and both are sent, in order. The rows are sealed with a
 * key from your secrets, never from the database.
 */
public final class OutboxOperator {
  /** Runs the scene; prints what the operator sees and what the provider received. */
  public static void main(String[] args) throws Exception {
    JdbcDataSource db = new JdbcDataSource();
    db.setURL("jdbc:h2:mem:operator;DB_CLOSE_DELAY=-1");
    String seal = System.getenv("SAFERETRY_OUTBOX_SEAL_KEY"); // base64 of 32+ bytes, or a demo's
    seal = seal != null ? seal : "c2FmZXJldHJ5LWV4YW1wbGVzLWRlbW8tc2VhbC1rZXk=";
    var stores = JdbcKeyStore.builder().dataSource(db).createSchema(true);
    try (FakeProvider api = FakeProvider.start(); // a payments API that will be down a while
        JdbcKeyStore store = stores.outboxSealKey("demo-1", getDecoder().decode(seal)).build();
        SafeRetryClient client =
            SafeRetryClient.builder()
                .baseUrl(api.baseUrl())
                .apiKey("sk_test")
                .keyStore(store)
                .retryPolicy(RetryPolicy.defaults().withMaxAttempts(1))
                .build()) { // 1 per send
      try (Connection c = db.getConnection()) { // with the order's rows, in its transaction
        c.setAutoCommit(false);
        for (String charge : new String[] {"order-42/charge", "order-42/shipping"}) {
          var p = ChargeCreateParams.builder().amount(4200L).currency("eur").description(charge);
          var intent = RequestOptions.none().withIntentId(charge);
          JdbcOutbox.of(store)
              .enqueue(c, "order-42", client, ChargesApi.CREATE, p.build(), intent, Instant.now());
        }
        c.commit();
      }
      api.arm(Fault.failBeforeCommit(503).times(2)); // down for the first charge's two claims
      Duration ms = Duration.ofMillis(1);
      var relays = OutboxRelay.builder().store(store).client(client).maxClaims(2);
      OutboxRelay relay = relays.backoff(ms, ms).build();
      while (JdbcOutbox.of(store).held().isEmpty()) {
        relay.runOnce(); // the first charge fails twice, then is parked
      }
      OutboxAdmin admin = JdbcOutbox.of(store).admin("alice@ops");
      for (var i : admin.whereOrderingKey("order-42").list(10)) {
        String s = i.isHeld() ? "parked " + i.reason() + ", holds key " + i.holdsKey() : "queued";
        System.out.println(i.record().intentId() + ": " + s + ", " + i.note());
      }
      var parked = admin.whereHeld().list(1).get(0);
      var requeued = admin.requeue(parked, "ticket-1234", "provider is back");
      admin.requeue(parked, "ticket-1234", "provider is back"); // a retried script: no effect
      System.out.println("requeued: " + requeued.note());
      while (!store.pending().isEmpty()) {
        relay.runOnce();
      }
      var received =
          api.received().stream().map(r -> r.parameters().get("description") + " " + r.status());
      System.out.println("provider received, in order: " + received.toList());
    }
  }
}
