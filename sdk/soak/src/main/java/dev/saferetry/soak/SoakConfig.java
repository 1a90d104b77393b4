package dev.saferetry.soak;

import java.time.Duration;
import java.util.Map;
import java.util.Objects;

/**
 * The settings of one soak run.
 *
 * @param intents how many intents (charges) in total; default 10,000
 * @param workers client worker processes; default 4
 * @param threads caller threads per worker; default 4
 * @param faultRate share of POSTs the proxy spoils, in [0, 1]; default 0.3
 * @param killInterval mean time between SIGKILLs (randomised ±50 %), zero for none; default 2 s
 * @param killEveryIntents also kill after about this many resolved intents, 0 for none; default 0
 * @param timeCap the run stops (and counts what is unresolved) after this; default 5 min
 * @param jdbcUrl the reference server's database: null for a private in-memory H2 one, or a
 *     PostgreSQL URL (a fresh schema is created in it for the run); default null
 * @param readTimeout the workers' read timeout; the proxy holds delayed answers longer; default 300
 *     ms
 * @param lockTimeout the server's takeover age of a pending key record; default 2 s
 * @param seed the seed of faults and kills; default 42
 * @param durableStore whether workers keep intents in a {@link
 *     dev.saferetry.filestore.FileKeyStore} (default true); false gives each process a fresh
 *     in-memory store, so a restarted worker mints new keys — the negative control that shows the
 *     audit catches duplicates
 * @param storeUrl null for a store per worker (see {@code durableStore}); otherwise every worker
 *     keeps its intents in one shared {@link dev.saferetry.jdbc.keystore.JdbcKeyStore} at this JDBC
 *     URL (a PostgreSQL URL gets a fresh schema for the run; blank: an embedded H2 file database in
 *     the run's work directory that every worker opens with {@code AUTO_SERVER}), and a killed
 *     worker's pending intents are re-driven by the surviving workers; default null
 *     <p>Instances are immutable and thread-safe.
 */
public record SoakConfig(
    int intents,
    int workers,
    int threads,
    double faultRate,
    Duration killInterval,
    int killEveryIntents,
    Duration timeCap,
    String jdbcUrl,
    Duration readTimeout,
    Duration lockTimeout,
    long seed,
    boolean durableStore,
    String storeUrl) {

  /**
   * Validates the settings.
   *
   * @throws IllegalArgumentException naming the first bad setting
   */
  public SoakConfig {
    if (intents < 1 || workers < 1 || threads < 1) {
      throw new IllegalArgumentException("intents, workers and threads must be positive");
    }
    if (!(faultRate >= 0 && faultRate <= 1)) {
      throw new IllegalArgumentException("faultRate must be in [0, 1]: " + faultRate);
    }
    Objects.requireNonNull(killInterval, "killInterval");
    Objects.requireNonNull(timeCap, "timeCap");
    Objects.requireNonNull(readTimeout, "readTimeout");
    Objects.requireNonNull(lockTimeout, "lockTimeout");
    if (killEveryIntents < 0) {
      throw new IllegalArgumentException("killEveryIntents must not be negative");
    }
  }

  /** Returns the defaults (see the components). */
  public static SoakConfig defaults() {
    return new SoakConfig(
        10_000,
        4,
        4,
        0.3,
        Duration.ofSeconds(2),
        0,
        Duration.ofMinutes(5),
        null,
        Duration.ofMillis(300),
        Duration.ofSeconds(2),
        42,
        true,
        null);
  }

  /** Returns the defaults overridden by {@code --intents}, {@code --workers}, ... options. */
  static SoakConfig fromOptions(Map<String, String> o) {
    SoakConfig d = defaults();
    return new SoakConfig(
        Integer.parseInt(o.getOrDefault("intents", "" + d.intents)),
        Integer.parseInt(o.getOrDefault("workers", "" + d.workers)),
        Integer.parseInt(o.getOrDefault("threads", "" + d.threads)),
        Double.parseDouble(o.getOrDefault("fault-rate", "" + d.faultRate)),
        millis(o, "kill-interval-ms", d.killInterval),
        Integer.parseInt(o.getOrDefault("kill-every-intents", "" + d.killEveryIntents)),
        Duration.ofSeconds(
            Long.parseLong(o.getOrDefault("time-cap-s", "" + d.timeCap.toSeconds()))),
        o.getOrDefault("jdbc-url", d.jdbcUrl),
        millis(o, "read-timeout-ms", d.readTimeout),
        millis(o, "lock-timeout-ms", d.lockTimeout),
        Long.parseLong(o.getOrDefault("seed", "" + d.seed)),
        !"memory".equals(o.get("store")),
        storeUrl(o));
  }

  private static String storeUrl(Map<String, String> o) {
    String kind = o.getOrDefault("store", "file");
    if (!kind.equals("file") && !kind.equals("memory") && !kind.equals("jdbc")) {
      throw new IllegalArgumentException("--store must be file, memory or jdbc: " + kind);
    }
    if (o.containsKey("store-url") && !kind.equals("jdbc")) {
      throw new IllegalArgumentException("--store-url needs --store jdbc");
    }
    return kind.equals("jdbc") ? o.getOrDefault("store-url", "") : null;
  }

  /** Returns a copy whose workers share one JDBC key store at {@code url} (blank: embedded H2). */
  public SoakConfig withJdbcStore(String url) {
    return new SoakConfig(
        intents,
        workers,
        threads,
        faultRate,
        killInterval,
        killEveryIntents,
        timeCap,
        jdbcUrl,
        readTimeout,
        lockTimeout,
        seed,
        true,
        url == null ? "" : url);
  }

  private static Duration millis(Map<String, String> o, String name, Duration fallback) {
    return Duration.ofMillis(Long.parseLong(o.getOrDefault(name, "" + fallback.toMillis())));
  }

  /** Returns a copy with another number of intents, workers and time cap. */
  public SoakConfig withSize(int intentCount, int workerCount, Duration cap) {
    return new SoakConfig(
        intentCount,
        workerCount,
        threads,
        faultRate,
        killInterval,
        killEveryIntents,
        cap,
        jdbcUrl,
        readTimeout,
        lockTimeout,
        seed,
        durableStore,
        storeUrl);
  }

  /** Returns a copy with other kill pacing: mean interval and resolved intents per kill. */
  public SoakConfig withKills(Duration interval, int everyIntents) {
    return new SoakConfig(
        intents,
        workers,
        threads,
        faultRate,
        interval,
        everyIntents,
        timeCap,
        jdbcUrl,
        readTimeout,
        lockTimeout,
        seed,
        durableStore,
        storeUrl);
  }

  /** Returns a copy running against another database (null: private in-memory H2). */
  public SoakConfig withJdbcUrl(String url) {
    return new SoakConfig(
        intents,
        workers,
        threads,
        faultRate,
        killInterval,
        killEveryIntents,
        timeCap,
        url,
        readTimeout,
        lockTimeout,
        seed,
        durableStore,
        storeUrl);
  }

  /** Returns a copy whose workers forget their intents on restart: the negative control. */
  public SoakConfig withVolatileStore() {
    return new SoakConfig(
        intents,
        workers,
        threads,
        faultRate,
        killInterval,
        killEveryIntents,
        timeCap,
        jdbcUrl,
        readTimeout,
        lockTimeout,
        seed,
        false,
        storeUrl);
  }
}
