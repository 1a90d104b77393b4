package dev.saferetry.jdbc.outbox;

import static dev.saferetry.jdbc.outbox.OutboxRelayTest.elapse;
import static dev.saferetry.jdbc.outbox.OutboxRelayTest.enqueue;
import static dev.saferetry.jdbc.outbox.OutboxRelayTest.relay;
import static dev.saferetry.jdbc.outbox.OutboxRelayTest.withRelay;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.saferetry.jdbc.TestDatabase;
import dev.saferetry.jdbc.TestDatabase.Db;
import dev.saferetry.jdbc.internal.outbox.RelayLeases;
import dev.saferetry.jdbc.keystore.JdbcKeyStore;
import dev.saferetry.jdbc.keystore.JdbcKeyStoreBuilder;
import dev.saferetry.testing.Answers;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.File;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;
import java.util.stream.Stream;
import mockwebserver3.Dispatcher;
import mockwebserver3.MockResponse;
import mockwebserver3.RecordedRequest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The meters show the outbox's backlog from one cached read of the table and count what the relay
 * did, on a plain registry; without Micrometer every other class still loads.
 */
class SafeRetryMetersTest {

  /** Order 1 is answered with a replayed charge, order 2 is rejected, order 3 stays unknown. */
  private static final Dispatcher BY_ORDER =
      new Dispatcher() {
        @Override
        public MockResponse dispatch(RecordedRequest request) {
          String body = request.getBody() == null ? "" : request.getBody().utf8();
          if (body.contains("order 1")) {
            return Answers.charge().newBuilder().setHeader("Idempotent-Replayed", "true").build();
          }
          return body.contains("order 2") ? Answers.status(400) : Answers.status(503);
        }
      };

  /** A ticker that moves on 10 s at each look: every gauge value is read from the table anew. */
  static LongSupplier secondPerRead() {
    AtomicLong now = new AtomicLong();
    return () -> now.addAndGet(TimeUnit.SECONDS.toNanos(10));
  }

  static double intents(MeterRegistry r, String state, String reason) {
    return r.get("saferetry.outbox.intents").tags("state", state, "reason", reason).gauge().value();
  }

  private static double count(MeterRegistry r, String name, String... tags) {
    return r.get(name).tags("owner", "relay-a").tags(tags).counter().count();
  }

  @ParameterizedTest
  @EnumSource(
      value = Db.class,
      names = {"H2", "POSTGRESQL"})
  void theBacklogAndTheRelaysWorkAreMeasured(Db db) throws Exception {
    withRelay(
        db,
        (database, store, server, time, client) -> {
          enqueue(database, store, client, time, true, 1, 2, 3);
          OutboxRelay relay = relay(store, client, time).build();
          SimpleMeterRegistry registry = new SimpleMeterRegistry();
          SafeRetryMeters meters = SafeRetryMeters.of(store, relay).ticking(secondPerRead());
          meters.bindTo(registry);
          meters.bindTo(registry); // again: nothing counted twice
          // Meters of their own for a second registry (another backend): both count.
          SimpleMeterRegistry second = new SimpleMeterRegistry();
          SafeRetryMeters.of(store, relay).bindTo(second);

          assertThat(intents(registry, "queued_due", "none")).isEqualTo(3);
          assertThat(intents(registry, "queued_later", "none")).isZero();
          assertThat(intents(registry, "leased", "none")).isZero();
          assertThat(registry.get("saferetry.outbox.leases").gauge().value()).isZero();
          assertThat(
                  registry.get("saferetry.outbox.oldest.due").timeGauge().value(TimeUnit.SECONDS))
              .isGreaterThanOrEqualTo(0)
              .isLessThan(600);

          server.setDispatcher(BY_ORDER);
          RelayPass pass = relay.runOnce();
          assertThat(pass.succeeded()).isEqualTo(1);

          assertThat(count(registry, "saferetry.relay.sends")).isEqualTo(3);
          assertThat(count(registry, "saferetry.relay.replays")).isEqualTo(1);
          assertThat(count(registry, "saferetry.relay.unknown")).isEqualTo(1);
          assertThat(count(registry, "saferetry.relay.endings", "ending", "succeeded"))
              .isEqualTo(1);
          assertThat(count(registry, "saferetry.relay.endings", "ending", "rejected")).isEqualTo(1);
          assertThat(count(registry, "saferetry.relay.endings", "ending", "retried")).isEqualTo(1);
          assertThat(count(registry, "saferetry.relay.endings", "ending", "held")).isZero();
          assertThat(count(second, "saferetry.relay.sends")).isEqualTo(3);
          assertThat(count(second, "saferetry.relay.endings", "ending", "succeeded")).isEqualTo(1);

          assertThat(intents(registry, "queued_due", "none")).isZero();
          assertThat(intents(registry, "queued_later", "none")).isEqualTo(1);
          assertThat(intents(registry, "held", "rejected")).isEqualTo(1);
          assertThat(intents(registry, "held", "expired")).isZero();
          assertThat(registry.get("saferetry.outbox.oldest.due").timeGauge().value())
              .isZero(); // nothing is due

          elapse(database, time, Duration.ofMinutes(1)); // order 3 is due again
          assertThat(intents(registry, "queued_due", "none")).isEqualTo(1);
          assertThat(RelayLeases.of(store).claim("relay-b", Duration.ofMinutes(5), 10)).hasSize(1);
          assertThat(intents(registry, "leased", "none")).isEqualTo(1);
          assertThat(registry.get("saferetry.outbox.leases").gauge().value()).isEqualTo(1);
          assertThat(intents(registry, "queued_due", "none")).isZero();
        });
  }

  @Test
  void theGaugesShareOneReadPerIntervalAndShowNaNWhenTheReadFails() throws Exception {
    withRelay(
        Db.H2,
        (database, store, server, time, client) -> {
          enqueue(database, store, client, time, true, 1);
          SimpleMeterRegistry cached = new SimpleMeterRegistry();
          SimpleMeterRegistry fresh = new SimpleMeterRegistry();
          SafeRetryMeters.of(store).cachedFor(Duration.ofHours(1)).bindTo(cached);
          SafeRetryMeters.of(store).ticking(secondPerRead()).bindTo(fresh);
          assertThat(intents(cached, "queued_due", "none")).isEqualTo(1);

          enqueue(database, store, client, time, true, 2);
          assertThat(intents(cached, "queued_due", "none")).as("read an hour ago").isEqualTo(1);
          assertThat(intents(cached, "leased", "none")).as("from the same read").isZero();
          assertThat(intents(fresh, "queued_due", "none")).isEqualTo(2);

          database.execute(
              "ALTER TABLE "
                  + database.table(JdbcKeyStoreBuilder.DEFAULT_TABLE)
                  + " RENAME TO gone");
          assertThat(intents(fresh, "queued_due", "none")).isNaN();
          assertThat(fresh.get("saferetry.outbox.oldest.due").timeGauge().value()).isNaN();
        });
  }

  @Test
  void badArgumentsAreRefused() throws Exception {
    try (TestDatabase database = Db.H2.open();
        JdbcKeyStore store = database.builder().build()) {
      assertThatThrownBy(() -> SafeRetryMeters.of(null)).isInstanceOf(NullPointerException.class);
      assertThatThrownBy(() -> SafeRetryMeters.of(store, (OutboxRelay) null))
          .isInstanceOf(NullPointerException.class);
      assertThatThrownBy(() -> SafeRetryMeters.of(store, (OutboxRelay[]) null))
          .isInstanceOf(NullPointerException.class);
      SafeRetryMeters meters = SafeRetryMeters.of(store);
      for (Duration bad :
          new Duration[] {
            Duration.ofNanos(-1),
            Duration.ZERO,
            Duration.ofMillis(999),
            Duration.ofHours(1).plusNanos(1)
          }) {
        assertThatThrownBy(() -> meters.cachedFor(bad))
            .isInstanceOf(IllegalArgumentException.class)
            .hasMessageContaining("interval");
      }
      assertThatThrownBy(() -> meters.cachedFor(null)).isInstanceOf(NullPointerException.class);
      assertThatThrownBy(() -> meters.bindTo(null)).isInstanceOf(NullPointerException.class);
    }
  }

  @Test
  void withoutMicrometerEveryOtherClassLoads() throws Exception {
    List<URL> path = new ArrayList<>();
    for (String entry : System.getProperty("java.class.path").split(File.pathSeparator)) {
      if (!entry.contains("micrometer")) {
        path.add(Paths.get(entry).toUri().toURL());
      }
    }
    Path classes =
        Paths.get(JdbcKeyStore.class.getProtectionDomain().getCodeSource().getLocation().toURI());
    List<String> names;
    try (Stream<Path> files = Files.walk(classes)) {
      names =
          files
              .map(p -> classes.relativize(p).toString())
              .filter(n -> n.endsWith(".class") && !n.contains("module-info"))
              .map(n -> n.substring(0, n.length() - 6).replace(File.separatorChar, '.'))
              .toList();
    }
    assertThat(names)
        .contains("dev.saferetry.jdbc.outbox.OutboxRelay", "dev.saferetry.jdbc.inbox.Inbox");
    try (URLClassLoader loader =
        new URLClassLoader(path.toArray(URL[]::new), ClassLoader.getPlatformClassLoader())) {
      assertThatThrownBy(
              () -> Class.forName("io.micrometer.core.instrument.MeterRegistry", false, loader))
          .isInstanceOf(ClassNotFoundException.class);
      for (String name : names) {
        if (name.equals("dev.saferetry.jdbc.outbox.SafeRetryMeters")) {
          assertThatThrownBy(() -> Class.forName(name, true, loader))
              .as(name)
              .isInstanceOf(NoClassDefFoundError.class);
        } else if (!name.startsWith("dev.saferetry.jdbc.outbox.SafeRetryMeters$")) {
          assertThat(Class.forName(name, true, loader)).as(name).isNotNull();
        }
      }
    }
  }
}
