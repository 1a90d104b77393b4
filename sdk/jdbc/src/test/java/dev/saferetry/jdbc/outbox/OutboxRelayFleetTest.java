package dev.saferetry.jdbc.outbox;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.saferetry.RequestOptions;
import dev.saferetry.SafeRetryClient;
import dev.saferetry.examples.payments.ChargeCreateParams;
import dev.saferetry.examples.payments.Charges;
import dev.saferetry.idempotency.IntentRecord;
import dev.saferetry.jdbc.TestDatabase;
import dev.saferetry.jdbc.TestDatabase.Db;
import dev.saferetry.jdbc.keystore.JdbcKeyStore;
import dev.saferetry.jdbc.keystore.JdbcKeyStoreBuilder;
import dev.saferetry.resilience.BreakerPolicy;
import dev.saferetry.resilience.RetryPolicy;
import dev.saferetry.testing.Answers;
import dev.saferetry.testing.FakeTime;
import java.io.IOException;
import java.sql.Connection;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import mockwebserver3.Dispatcher;
import mockwebserver3.MockResponse;
import mockwebserver3.MockWebServer;
import mockwebserver3.RecordedRequest;
import org.junit.jupiter.api.Test;

/**
 * Four relays with their default batch and concurrency drain one PostgreSQL outbox together: a
 * recording provider gets every intent exactly once (one answered success each), every attempt of
 * an intent with its own key and bytes, and no key it was not given; every row ends completed. One
 * intent in ten is answered 503 first, so it is attempted twice. Not timed.
 */
class OutboxRelayFleetTest {
  private static final int INTENTS = 1_000;
  private static final int RELAYS = 4;
  private static final ObjectMapper JSON = new ObjectMapper();

  @Test
  void fourRelaysSendEveryIntentExactlyOnceWithItsKeyOnEveryAttempt() throws Exception {
    try (TestDatabase database = Db.POSTGRESQL.open();
        JdbcKeyStore store = database.builder().build();
        Provider provider = Provider.start()) {
      FakeTime time = OutboxRelayTest.atDatabaseTime();
      try (SafeRetryClient client =
          SafeRetryClient.builder()
              .baseUrl(provider.baseUrl())
              .apiKey(OutboxRelayTest.API_KEY)
              .keyStore(store)
              .clock(time)
              .sleeper(time) // a retry after a 503 waits no real time
              .breakerPolicy(BreakerPolicy.disabled())
              .retryPolicy(RetryPolicy.defaults().withDeadline(Duration.ofSeconds(55)))
              .build()) {
        for (int from = 1; from <= INTENTS; from += 250) {
          try (Connection c = database.pool().getConnection()) {
            c.setAutoCommit(false);
            for (int n = from; n < from + 250; n++) {
              JdbcOutbox.of(store)
                  .enqueue(
                      c,
                      client,
                      Charges.CREATE,
                      new ChargeCreateParams(1000L + n, "eur", "order " + n, null),
                      RequestOptions.none().withIntentId("order-" + n),
                      time.instant());
            }
            c.commit();
          }
        }
        Set<String> keys =
            client.pendingIntents().stream()
                .map(IntentRecord::key)
                .map(k -> k.value())
                .collect(Collectors.toSet());
        assertThat(keys).hasSize(INTENTS);

        List<OutboxRelay> fleet = new ArrayList<>();
        for (int r = 0; r < RELAYS; r++) {
          OutboxRelay relay =
              OutboxRelay.builder().store(store).client(client).owner("relay-" + r).build();
          fleet.add(relay);
          relay.start();
        }
        try {
          provider.awaitSuccesses(INTENTS, TimeUnit.SECONDS.toNanos(120));
        } finally {
          for (OutboxRelay relay : fleet) {
            relay.stop(); // each finishes its pass: every claimed intent is recorded
          }
        }

        assertThat(provider.successes.keySet()).isEqualTo(keys);
        assertThat(provider.successes).allSatisfy((key, n) -> assertThat(n).as(key).isEqualTo(1));
        assertThat(provider.bodies.keySet()).isEqualTo(keys);
        assertThat(provider.bodies).allSatisfy((key, b) -> assertThat(b).as(key).hasSize(1));
        assertThat(provider.requests()).isEqualTo(INTENTS + INTENTS / 10);
        assertThat(client.pendingIntents()).isEmpty();
        assertThat(
                database.count(
                    "SELECT count(*) FROM "
                        + database.table(JdbcKeyStoreBuilder.DEFAULT_TABLE)
                        + " WHERE state = 1 AND relay_state = 1 AND lease_owner IS NULL"))
            .isEqualTo(INTENTS);
        assertThat(JdbcOutbox.of(store).held()).isEmpty();
      }
    }
  }

  /**
   * Answers a charge at once, except the first attempt of every tenth order (503); records each
   * key's successes and the distinct bodies sent with it.
   */
  private static final class Provider extends Dispatcher {
    final Map<String, Integer> successes = new ConcurrentHashMap<>();
    final Map<String, Set<String>> bodies = new ConcurrentHashMap<>();
    private final Set<String> refusedOnce = ConcurrentHashMap.newKeySet();
    private final MockWebServer server = new MockWebServer();
    private int requests;

    static Provider start() throws IOException {
      Provider p = new Provider();
      p.server.setDispatcher(p);
      p.server.start(0);
      return p;
    }

    String baseUrl() {
      return server.url("/").toString();
    }

    @Override
    public MockResponse dispatch(RecordedRequest request) {
      String body = request.getBody() == null ? "" : request.getBody().utf8();
      String key = String.valueOf(request.getHeaders().get("Idempotency-Key"));
      bodies.computeIfAbsent(key, k -> ConcurrentHashMap.newKeySet()).add(body);
      boolean tenth;
      try {
        tenth = JSON.readTree(body).get("description").asText().endsWith("0");
      } catch (IOException | RuntimeException e) {
        tenth = false;
      }
      boolean refuse = tenth && refusedOnce.add(key);
      synchronized (this) {
        requests++;
        if (!refuse) {
          successes.merge(key, 1, Integer::sum);
        }
        notifyAll();
      }
      return refuse ? Answers.status(503) : Answers.charge();
    }

    synchronized int requests() {
      return requests;
    }

    synchronized void awaitSuccesses(int n, long nanos) throws InterruptedException {
      long deadline = System.nanoTime() + nanos;
      while (successes.size() < n) {
        long left = deadline - System.nanoTime();
        if (left <= 0) {
          return; // the assertions name what is missing
        }
        TimeUnit.NANOSECONDS.timedWait(this, left);
      }
    }

    @Override
    public void close() {
      server.close();
    }
  }
}
