package dev.saferetry.examples;

import static java.util.Base64.getDecoder;

import dev.saferetry.RequestOptions;
import dev.saferetry.SafeRetryClient;
import dev.saferetry.jdbc.JdbcKeyStore;
import dev.saferetry.jdbc.OutboxAdmin;
import dev.saferetry.jdbc.OutboxIntent;
import dev.saferetry.jdbc.OutboxRelay;
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
 * An operator resolves a parked outbox intent. Two charges of one order share an ordering key, so
 * the relay sends them in commit order. The provider (saferetry-testing's fake) is down: the first
 * is parked after its claim limit, the second waits. Requeued (twice: the second changes nothing),
 * both are sent, in order. The rows are sealed with a key from your secrets, not from the database.
 */
public final class OutboxOperator {
  /** Runs the scene; prints what the operator sees and what the provider received. */
  public static void main(String[] args) throws Exception {
    JdbcDataSource db = new JdbcDataSource();
    db.setURL("jdbc:h2:mem:operator;DB_CLOSE_DELAY=-1");
    String seal = System.getenv("SAFERETRY_OUTBOX_SEAL_KEY"); // base64 of 32+ bytes, or a demo's
    seal = seal != null ? seal : "c2FmZXJldHJ5LWV4YW1wbGVzLWRlbW8tc2VhbC1rZXk=";
    var stores = JdbcKeyStore.builder(db).createSchema(true);
    try (FakeProvider api = FakeProvider.start(); // a payments API that will be down a while
        JdbcKeyStore store = stores.outboxSealKey("demo-1", getDecoder().decode(seal)).build();
        SafeRetryClient client =
            SafeRetryClient.builder()
                .baseUrl(api.baseUrl())
                .apiKey("sk_test")
                .keyStore(store)
                .retryPolicy(RetryPolicy.defaults().withMaxAttempts(1))
                .build()) { // 1 per send
      Instant now = Instant.now();
      try (Connection c = db.getConnection()) { // with the order's rows, in its transaction
        c.setAutoCommit(false);
        for (String charge : new String[] {"order-42/charge", "order-42/shipping"}) {
          var p = ChargeCreateParams.builder().amount(4200L).currency("eur").description(charge);
          var intent = RequestOptions.none().withIntentId(charge);
          store.outbox().enqueue(c, "order-42", client, ChargesApi.CREATE, p.build(), intent, now);
        }
        c.commit();
      }
      api.arm(Fault.failBeforeCommit(503).times(2)); // down for the first charge's two claims
      Duration ms = Duration.ofMillis(1);
      OutboxRelay relay = OutboxRelay.builder(store, client).maxClaims(2).backoff(ms, ms).build();
      while (store.outbox().held().isEmpty()) {
        relay.runOnce(); // the first charge fails twice, then is parked
      }
      OutboxAdmin admin = store.outbox().admin("alice@ops");
      for (OutboxIntent i : admin.whereOrderingKey("order-42").list(10)) {
        String state =
            i.isHeld() ? "parked " + i.reason() + ", holds key " + i.holdsKey() : "queued";
        System.out.println(i.record().intentId() + ": " + state + ", " + i.note());
      }
      OutboxIntent parked = admin.whereHeld().list(1).get(0);
      OutboxIntent requeued = admin.requeue(parked, "ticket-1234", "provider is back");
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
