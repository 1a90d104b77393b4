package dev.saferetry.jdbc.outbox;

import dev.saferetry.CallResult;
import dev.saferetry.call.Outcome;
import dev.saferetry.error.SafeRetryException;
import dev.saferetry.jdbc.internal.keystore.KeyStoreDatabase;
import dev.saferetry.jdbc.keystore.JdbcKeyStore;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.TimeGauge;
import io.micrometer.core.instrument.binder.MeterBinder;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Micrometer meters for an outbox and the relays that work it. Needs {@code
 * io.micrometer:micrometer-core} on the class path, which {@code saferetry-jdbc} declares optional:
 * every other class of the artifact works without it.
 *
 * <pre>{@code
 * SafeRetryMeters.of(store, relay).bindTo(registry);
 * }</pre>
 *
 * <p><b>Gauges</b> read the outbox's table with one query, on an index, at most once per {@link
 * #cachedFor} interval (default 10 s, at least 1 s) however many gauges are scraped; tagged {@code
 * table}:
 *
 * <ul>
 *   <li>{@code saferetry.outbox.intents}: the backlog, tagged {@code state} — {@code queued_due}
 *       (due, not leased), {@code queued_later} (backing off or not yet due), {@code leased} (being
 *       sent), {@code held} — and {@code reason} ({@code none}, or for held intents the {@link
 *       HoldReason} in lower case). Completed intents are not counted: they are as many as the
 *       retention keeps, and counting them would read the whole table; the relay's counters below
 *       count what it completes.
 *   <li>{@code saferetry.outbox.oldest.due}: how long ago the oldest due intent was enqueued (0
 *       when none is due), by this JVM's clock.
 *   <li>{@code saferetry.outbox.leases}: leases held, by any relay.
 * </ul>
 *
 * A failed read makes the gauges NaN until the next read succeeds; it is logged, never thrown.
 * Closing the store removes its gauges from every registry, and a closed store's gauges are never
 * bound (they could only show NaN).
 *
 * <p><b>Counters</b> of each relay given, tagged {@code owner}: {@code saferetry.relay.sends}
 * (stored requests sent, whatever the answer), {@code saferetry.relay.replays} (answers the
 * provider marked as a replay of a stored outcome, see {@link CallResult#replayed()}), {@code
 * saferetry.relay.unknown} (sends that ended with an {@link Outcome#UNKNOWN} outcome), and {@code
 * saferetry.relay.endings} tagged {@code ending}: {@code succeeded}, {@code rejected}, {@code
 * retried}, {@code expired}, {@code held}, {@code unsettled}, {@code lost} and {@code reconciled},
 * as {@link RelayPass} counts them. Tags never carry tenants, operations or intent ids, so their
 * number stays bounded.
 *
 * <p>Bind one instance per store and its relays, to any number of registries. A relay counts once
 * per registry however many instances bind it there, and closing it ({@link OutboxRelay#close()})
 * removes its counters from every registry, so relays that come and go leave no meters behind; a
 * closed relay is refused. Thread-safe; its settings are immutable.
 */
// Micrometer is an optional dependency, not re-exported: whoever binds the meters has it.
@SuppressWarnings("exports")
public final class SafeRetryMeters implements MeterBinder {
  private static final Logger LOG = LoggerFactory.getLogger(SafeRetryMeters.class);
  private static final Duration DEFAULT_CACHE = Duration.ofSeconds(10);
  private static final Duration MIN_CACHE = Duration.ofSeconds(1);

  /** The states a gauge shows, and their slot in a {@link Snapshot}. */
  private static final List<String> STATES = List.of("queued_due", "queued_later", "leased");

  private static final int HELD = STATES.size();

  private final KeyStoreDatabase store;
  private final List<OutboxRelay> relays;
  private final Duration cacheFor;
  private final LongSupplier ticker;
  private final String query;
  private final Map<MeterRegistry, List<Meter>> bound = new IdentityHashMap<>(); // guarded
  private boolean storeClosed; // guarded by bound
  private final Object lock = new Object();
  private Snapshot last; // guarded by lock
  private long lastRead; // ticker's time of last; guarded by lock

  private SafeRetryMeters(
      KeyStoreDatabase store, List<OutboxRelay> relays, Duration cacheFor, LongSupplier ticker) {
    this.store = store;
    this.relays = relays;
    this.cacheFor = cacheFor;
    this.ticker = ticker;
    // phase: 0 held, 1 queued and due, 2 queued for later, 3 leased. Both relay states are in the
    // relay index (PostgreSQL: a partial index on exactly these rows).
    this.query =
        "SELECT relay_state, hold_reason, phase, COUNT(*), MIN(created_at_ns) FROM (SELECT"
            + " relay_state, hold_reason, created_at_ns, CASE WHEN relay_state = 2 THEN 0"
            + " WHEN lease_expires_ns > ? THEN 3 WHEN next_attempt_ns <= ? THEN 1 ELSE 2 END"
            + " AS phase FROM "
            + store.tableName()
            + " WHERE relay_state IN (0, 2)) backlog GROUP BY relay_state, hold_reason, phase";
  }

  /**
   * {@return meters for {@code store}'s outbox and the counters of {@code relays}}
   *
   * @param store the key store whose outbox is measured
   * @param relays relays whose work is counted (none: gauges only)
   * @throws NullPointerException if {@code store}, {@code relays} or one of them is null
   * @throws IllegalArgumentException if a relay is given twice
   */
  public static SafeRetryMeters of(JdbcKeyStore store, OutboxRelay... relays) {
    Objects.requireNonNull(store, "store");
    List<OutboxRelay> list = List.of(relays); // refuses nulls
    if (list.stream().distinct().count() != list.size()) {
      throw new IllegalArgumentException("relays: the same relay is given twice");
    }
    return new SafeRetryMeters(KeyStoreDatabase.of(store), list, DEFAULT_CACHE, System::nanoTime);
  }

  /**
   * {@return meters like these that read the table at most once per {@code interval}}
   *
   * @param interval how long a read serves the gauges: 1 s to 1 hour, so that one scrape of all the
   *     gauges is one query
   * @throws IllegalArgumentException if {@code interval} is under 1 s or over an hour
   */
  public SafeRetryMeters cachedFor(Duration interval) {
    Objects.requireNonNull(interval, "interval");
    if (interval.compareTo(MIN_CACHE) < 0 || interval.compareTo(Duration.ofHours(1)) > 0) {
      throw new IllegalArgumentException(
          "interval must be 1 s to 1 hour (a shorter one would query the table once per gauge of"
              + " every scrape), was "
              + interval);
    }
    return new SafeRetryMeters(store, relays, interval, ticker);
  }

  /** A copy whose cache interval is measured by {@code ticker} (nanoseconds), for tests. */
  SafeRetryMeters ticking(LongSupplier ticker) {
    return new SafeRetryMeters(store, relays, cacheFor, Objects.requireNonNull(ticker, "ticker"));
  }

  /**
   * Registers the gauges and, for each relay, its counters in {@code registry}, and has the relays
   * report to it. Binding to the same registry again, from this instance or another, changes
   * nothing: each relay counts once per registry.
   *
   * @param registry the registry
   * @throws IllegalStateException if the store or one of the relays is closed
   */
  @Override
  public void bindTo(MeterRegistry registry) {
    Objects.requireNonNull(registry, "registry");
    for (OutboxRelay relay : relays) {
      if (relay.isClosed()) {
        throw new IllegalStateException(
            "the relay " + relay.owner() + " is closed: it would count nothing");
      }
    }
    synchronized (bound) {
      if (storeClosed || store.isClosed()) {
        throw new IllegalStateException(
            "the key store " + store.tableName() + " is closed: its gauges would only show NaN");
      }
      if (bound.containsKey(registry)) {
        return;
      }
      if (bound.isEmpty()) {
        store.onClose(this::storeClosed);
      }
      bound.put(registry, gauges(registry));
    }
    for (OutboxRelay relay : relays) {
      Counting counting = new Counting(registry, relay.owner());
      try {
        relay.observe(counting); // false: it already counts there, with these very counters
      } catch (IllegalStateException closedMeanwhile) {
        counting.closed();
        throw closedMeanwhile;
      }
    }
  }

  private List<Meter> gauges(MeterRegistry registry) {
    List<Meter> meters = new ArrayList<>();
    String table = store.tableName();
    for (int s = 0; s < STATES.size(); s++) {
      int slot = s;
      meters.add(
          Gauge.builder("saferetry.outbox.intents", this, m -> m.snapshot().count(slot))
              .tags("table", table, "state", STATES.get(s), "reason", "none")
              .description("Outbox intents not yet completed, by state")
              .strongReference(true) // held by the registry: binding needs no other reference
              .register(registry));
    }
    for (HoldReason reason : HoldReason.values()) {
      int slot = HELD + reason.ordinal();
      meters.add(
          Gauge.builder("saferetry.outbox.intents", this, m -> m.snapshot().count(slot))
              .tags(
                  "table", table, "state", "held", "reason", reason.name().toLowerCase(Locale.ROOT))
              .description("Outbox intents not yet completed, by state")
              .strongReference(true)
              .register(registry));
    }
    meters.add(
        TimeGauge.builder(
                "saferetry.outbox.oldest.due",
                this,
                TimeUnit.SECONDS,
                m -> m.snapshot().oldestDueSeconds())
            .tags("table", table)
            .description("Time since the oldest due outbox intent was enqueued")
            .strongReference(true)
            .register(registry));
    meters.add(
        Gauge.builder(
                "saferetry.outbox.leases", this, m -> m.snapshot().count(STATES.indexOf("leased")))
            .tags("table", table)
            .description("Leases held on outbox intents")
            .strongReference(true)
            .register(registry));
    return meters;
  }

  // The store was closed: its gauges leave every registry they were bound to.
  private void storeClosed() {
    synchronized (bound) {
      storeClosed = true;
      bound.forEach((registry, meters) -> meters.forEach(registry::remove));
      bound.clear();
    }
  }

  /** The last read of the table, read again when older than the cache interval. */
  Snapshot snapshot() {
    synchronized (lock) {
      long now = ticker.getAsLong();
      if (last == null || now - lastRead >= cacheFor.toNanos()) {
        last = read();
        lastRead = now;
      }
      return last;
    }
  }

  private Snapshot read() {
    Instant now = Instant.now();
    long ns = now.getEpochSecond() * 1_000_000_000L + now.getNano();
    try {
      return store.open().autoCommit("read the outbox's meters", c -> read(c, ns));
    } catch (RuntimeException e) {
      LOG.warn("could not read the outbox's meters: {}", e.toString());
      return Snapshot.FAILED;
    }
  }

  private Snapshot read(Connection c, long now) throws SQLException {
    long[] counts = new long[HELD + HoldReason.values().length];
    long oldestDue = Long.MAX_VALUE;
    try (PreparedStatement ps = c.prepareStatement(query)) {
      ps.setLong(1, now);
      ps.setLong(2, now);
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          int phase = rs.getInt(3);
          long count = rs.getLong(4);
          if (phase == 0) {
            int reason = rs.getInt(2); // 1..6, as the table records them, in HoldReason's order
            if (reason >= 1 && reason <= HoldReason.values().length) {
              counts[HELD + reason - 1] += count;
            }
          } else {
            counts[phase - 1] += count;
            if (phase == 1) {
              oldestDue = Math.min(oldestDue, rs.getLong(5));
            }
          }
        }
      }
    }
    double age = oldestDue == Long.MAX_VALUE ? 0 : Math.max(0, now - oldestDue) / 1e9;
    return new Snapshot(Arrays.stream(counts).asDoubleStream().toArray(), age);
  }

  /** What one read of the table found: counts by slot, and the oldest due intent's age. */
  private record Snapshot(double[] counts, double oldestDueSeconds) {
    static final Snapshot FAILED = new Snapshot(null, Double.NaN);

    double count(int slot) {
      return counts == null ? Double.NaN : counts[slot];
    }
  }

  /**
   * A relay's counters in one registry, as the relay's observer: equal to another for the same
   * registry, so that the relay keeps one per registry however many instances bind it there.
   */
  private static final class Counting implements RelayObserver {
    private final MeterRegistry registry;
    private final Counters counters;

    Counting(MeterRegistry registry, String owner) {
      this.registry = registry;
      this.counters = new Counters(registry, owner);
    }

    @Override
    public void answered(CallResult<?> result, SafeRetryException error) {
      counters.answered(result, error);
    }

    @Override
    public void passed(RelayPass pass) {
      counters.passed(pass);
    }

    @Override
    public void closed() {
      counters.meters().forEach(registry::remove);
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof Counting c && c.registry == registry;
    }

    @Override
    public int hashCode() {
      return System.identityHashCode(registry);
    }
  }

  /** A relay's counters in one registry. */
  private static final class Counters {
    private final Counter sends;
    private final Counter replays;
    private final Counter unknown;
    private final Map<Ending, Counter> endings = new EnumMap<>(Ending.class);

    Counters(MeterRegistry registry, String owner) {
      sends = counter(registry, "saferetry.relay.sends", owner, "Stored requests sent");
      replays = counter(registry, "saferetry.relay.replays", owner, "Answers marked as replayed");
      unknown = counter(registry, "saferetry.relay.unknown", owner, "Sends with unknown outcome");
      for (Ending e : Ending.values()) {
        endings.put(
            e,
            Counter.builder("saferetry.relay.endings")
                .tags("owner", owner, "ending", e.name().toLowerCase(Locale.ROOT))
                .description("How the relay's sends and holds ended")
                .register(registry));
      }
    }

    private static Counter counter(MeterRegistry r, String name, String owner, String what) {
      return Counter.builder(name).tags("owner", owner).description(what).register(r);
    }

    void answered(CallResult<?> result, SafeRetryException error) {
      sends.increment();
      if (result != null && result.replayed()) {
        replays.increment();
      }
      if (error != null && error.outcome() == Outcome.UNKNOWN) {
        unknown.increment();
      }
    }

    void passed(RelayPass p) {
      add(Ending.SUCCEEDED, p.succeeded());
      add(Ending.REJECTED, p.rejected());
      add(Ending.RETRIED, p.retried());
      add(Ending.EXPIRED, p.expired());
      add(Ending.HELD, p.held());
      add(Ending.UNSETTLED, p.unsettled());
      add(Ending.LOST, p.lost());
      add(Ending.RECONCILED, p.reconciled());
    }

    List<Meter> meters() {
      List<Meter> all = new ArrayList<>(List.of(sends, replays, unknown));
      all.addAll(endings.values());
      return all;
    }

    private void add(Ending e, int n) {
      if (n > 0) {
        endings.get(e).increment(n);
      }
    }
  }

  /** The endings a relay pass counts. */
  private enum Ending {
    SUCCEEDED,
    REJECTED,
    RETRIED,
    EXPIRED,
    HELD,
    UNSETTLED,
    LOST,
    RECONCILED
  }
}
