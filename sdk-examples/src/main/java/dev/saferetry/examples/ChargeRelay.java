package dev.saferetry.examples;

import static java.util.Base64.getDecoder;

import com.zaxxer.hikari.HikariDataSource;
import dev.saferetry.SafeRetryClient;
import dev.saferetry.call.Outcome;
import dev.saferetry.event.AttemptStarted;
import dev.saferetry.event.CallFinished;
import dev.saferetry.event.SafeRetryListener;
import dev.saferetry.jdbc.keystore.JdbcKeyStore;
import dev.saferetry.jdbc.outbox.OutboxRelay;
import dev.saferetry.jdbc.outbox.RelayPass;
import dev.saferetry.resilience.RetryPolicy;
import java.time.Duration;

/**
 * A relay process of the outbox: sends the charges {@link Outbox}'s transactions committed, each
 * with its recorded key, until none is left; relays share the work through leases, and one that
 * dies leaves its intents to the others. The tour's outbox drill starts two, and kills the first.
 */
public final class ChargeRelay {
  /** {@code DB-URL API-URL NAME}: the outbox's database, the payment API, this relay's name. */
  public static void main(String[] args) throws Exception {
    SafeRetryListener print =
        new SafeRetryListener() {
          @Override
          public void onAttemptStart(AttemptStarted e) {
            System.out.println(
                "sending " + e.intentId() + " attempt " + e.attempt() + " key " + e.key());
          }

          @Override
          public void onCallEnd(CallFinished e) {
            System.out.println(
                (e.outcome() == Outcome.SUCCEEDED ? "sent " : "ended ") + e.intentId());
          }
        };
    String seal = System.getenv("SAFERETRY_OUTBOX_SEAL_KEY"); // base64 of 32+ bytes, or a demo's
    seal = seal != null ? seal : "c2FmZXJldHJ5LWV4YW1wbGVzLWRlbW8tc2VhbC1rZXk=";
    HikariDataSource pool = new HikariDataSource();
    pool.setJdbcUrl(args[0]);
    pool.setMaximumPoolSize(2);
    try (pool;
        JdbcKeyStore store = // the seal key the enqueuers used, from your secrets
            JdbcKeyStore.builder()
                .dataSource(pool)
                .createSchema(true)
                .outboxSealKey("demo-1", getDecoder().decode(seal))
                .build();
        SafeRetryClient client =
            SafeRetryClient.builder()
                .baseUrl(args[1])
                .apiKey("sk_test_outbox")
                .keyStore(store)
                .listener(print)
                .retryPolicy(RetryPolicy.defaults().withDeadline(Duration.ofSeconds(3)))
                .build()) {
      OutboxRelay relay =
          OutboxRelay.builder()
              .store(store)
              .client(client)
              .owner(args[2])
              .batchSize(1)
              .leaseFor(Duration.ofSeconds(8)) // the calls' 3 s + 5 s: soon taken over
              .backoff(Duration.ofMillis(200), Duration.ofSeconds(2))
              .build();
      while (true) {
        RelayPass pass = relay.runOnce();
        if (pass.claimed() == 0 && store.pending().isEmpty()) {
          System.out.println("nothing left to send");
          return;
        }
        // none claimed: another relay's lease or a backoff; else go slow, for the drill to kill
        Thread.sleep(pass.claimed() == 0 ? 200 : 150);
      }
    }
  }
}
