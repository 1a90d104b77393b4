package dev.saferetry.jdbc.outbox;

import static dev.saferetry.jdbc.outbox.OutboxRelayTest.enqueue;
import static dev.saferetry.jdbc.outbox.OutboxRelayTest.relay;
import static dev.saferetry.jdbc.outbox.OutboxRelayTest.withRelay;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.saferetry.jdbc.TestDatabase;
import dev.saferetry.jdbc.TestDatabase.Db;
import dev.saferetry.jdbc.keystore.JdbcKeyStore;
import dev.saferetry.testing.Answers;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.TimeGauge;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The meters cost one query per scrape and leave nothing behind: a closed relay's counters and a
 * closed store's gauges leave the registry, a closed store cannot be bound, and a relay bound twice
 * to one registry counts each send once.
 */
class SafeRetryMetersLifecycleTest {
  private static final String METER_QUERY = "GROUP BY relay_state, hold_reason, phase";

  /** The pool, counting the statements prepared with the meters' query. */
  private static DataSource counting(DataSource pool, AtomicInteger queries) {
    return proxy(DataSource.class, pool, queries);
  }

  private static <T> T proxy(Class<T> type, Object target, AtomicInteger queries) {
    InvocationHandler handler =
        (self, method, args) -> {
          if (method.getName().equals("prepareStatement")
              && args != null
              && args[0] instanceof String sql
              && sql.contains(METER_QUERY)) {
            queries.incrementAndGet();
          }
          Object result;
          try {
            result = method.invoke(target, args);
          } catch (InvocationTargetException e) {
            throw e.getCause();
          }
          return result instanceof Connection c && method.getName().equals("getConnection")
              ? proxy(Connection.class, c, queries)
              : result;
        };
    return type.cast(Proxy.newProxyInstance(type.getClassLoader(), new Class<?>[] {type}, handler));
  }

  private static void scrape(SimpleMeterRegistry registry) {
    for (Meter m : registry.getMeters()) {
      if (m instanceof TimeGauge g) {
        g.value(TimeUnit.SECONDS);
      } else if (m instanceof Gauge g) {
        g.value();
      }
    }
  }

  @Test
  void aScrapeOfEveryGaugeIsOneQueryAndNoShorterCacheIsAccepted() throws Exception {
    try (TestDatabase database = Db.H2.open()) {
      AtomicInteger queries = new AtomicInteger();
      try (JdbcKeyStore store =
          JdbcKeyStore.builder()
              .dataSource(counting(database.pool(), queries))
              .schema(database.schema)
              .createSchema(true)
              .build()) {
        assertThatThrownBy(() -> SafeRetryMeters.of(store).cachedFor(Duration.ZERO))
            .isInstanceOf(IllegalArgumentException.class)
            .hasMessageContaining("1 s to 1 hour");
        AtomicLong now = new AtomicLong();
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        SafeRetryMeters.of(store)
            .cachedFor(Duration.ofSeconds(1))
            .ticking(now::get)
            .bindTo(registry);
        assertThat(registry.getMeters()).hasSize(11);

        scrape(registry);
        assertThat(queries).as("one scrape of 11 gauges").hasValue(1);
        now.addAndGet(TimeUnit.MILLISECONDS.toNanos(999));
        scrape(registry);
        assertThat(queries).as("within the second").hasValue(1);
        now.addAndGet(TimeUnit.MILLISECONDS.toNanos(1));
        scrape(registry);
        assertThat(queries).as("a second later").hasValue(2);
      }
    }
  }

  @Test
  void closedRelaysLeaveNoMetersBehind() throws Exception {
    withRelay(
        Db.H2,
        (database, store, server, time, client) -> {
          SimpleMeterRegistry registry = new SimpleMeterRegistry();
          SafeRetryMeters.of(store).bindTo(registry);
          int gauges = registry.getMeters().size();
          for (int i = 0; i < 500; i++) {
            OutboxRelay relay =
                relay(store, client, time).owner("relay-" + UUID.randomUUID()).build();
            SafeRetryMeters.of(store, relay).bindTo(registry);
            assertThat(registry.getMeters()).hasSize(gauges + 11);
            relay.close();
          }
          assertThat(registry.getMeters()).hasSize(gauges);

          OutboxRelay closed = relay(store, client, time).owner("closed").build();
          closed.close();
          assertThatThrownBy(() -> SafeRetryMeters.of(store, closed).bindTo(registry))
              .isInstanceOf(IllegalStateException.class)
              .hasMessageContaining("relay closed is closed");
          assertThat(registry.getMeters()).hasSize(gauges);
        });
  }

  @Test
  void aClosedStoresGaugesLeaveTheRegistryAndItCannotBeBoundAgain() throws Exception {
    try (TestDatabase database = Db.H2.open()) {
      JdbcKeyStore store = database.builder().build();
      SimpleMeterRegistry registry = new SimpleMeterRegistry();
      SimpleMeterRegistry other = new SimpleMeterRegistry();
      SafeRetryMeters meters = SafeRetryMeters.of(store);
      meters.bindTo(registry);
      meters.bindTo(other);
      assertThat(registry.find("saferetry.outbox.intents").gauges()).hasSize(9);

      store.close();
      assertThat(registry.getMeters()).isEmpty();
      assertThat(other.getMeters()).isEmpty();
      SimpleMeterRegistry later = new SimpleMeterRegistry();
      for (SafeRetryMeters again : List.of(meters, SafeRetryMeters.of(store))) {
        assertThatThrownBy(() -> again.bindTo(later))
            .isInstanceOf(IllegalStateException.class)
            .hasMessageContaining("is closed")
            .hasMessageContaining("NaN");
      }
      assertThat(later.getMeters()).isEmpty();
    }
  }

  @ParameterizedTest
  @EnumSource(
      value = Db.class,
      names = {"H2", "POSTGRESQL"})
  void aRelayBoundTwiceToOneRegistryCountsEachSendOnce(Db db) throws Exception {
    withRelay(
        db,
        (database, store, server, time, client) -> {
          enqueue(database, store, client, time, true, 1, 2, 3);
          OutboxRelay relay = relay(store, client, time).build();
          SimpleMeterRegistry registry = new SimpleMeterRegistry();
          SimpleMeterRegistry second = new SimpleMeterRegistry();
          SafeRetryMeters.of(store, relay).bindTo(registry);
          SafeRetryMeters.of(store, relay).bindTo(registry); // another instance, same registry
          SafeRetryMeters.of(store, relay).bindTo(second);
          for (int i = 0; i < 3; i++) {
            server.enqueue(Answers.charge());
          }

          assertThat(relay.runOnce().succeeded()).isEqualTo(3);

          assertThat(registry.get("saferetry.relay.sends").counter().count()).isEqualTo(3);
          assertThat(
                  registry
                      .get("saferetry.relay.endings")
                      .tags("ending", "succeeded")
                      .counter()
                      .count())
              .isEqualTo(3);
          assertThat(second.get("saferetry.relay.sends").counter().count()).isEqualTo(3);
        });
  }
}
