package dev.saferetry.bench;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.saferetry.idempotency.FileKeyStore;
import dev.saferetry.idempotency.IdempotencyKey;
import dev.saferetry.idempotency.IntentRecord;
import dev.saferetry.idempotency.IntentScope;
import dev.saferetry.idempotency.IntentState;
import dev.saferetry.idempotency.KeyStore;
import dev.saferetry.jdbc.JdbcKeyStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A bounded benchmark (about a minute) of {@link JdbcKeyStore} on PostgreSQL: begin + complete per
 * intent at 1, 8 and 32 callers, with the database round trips each costs, next to {@link
 * FileKeyStore} on the same machine in the same run. Each store first runs every caller count for a
 * second unmeasured (so that the measured slices see compiled code), then the stores and caller
 * counts take turns in slices of 1.5 s, five rounds, and the median of each is printed, so that a
 * machine whose disk slows down for a while does not bias one figure. Not a test; run it on an
 * otherwise idle machine:
 *
 * <pre>
 * mvn -B -q -pl sdk test-compile exec:java@bench-jdbc [-Dexec.args="JDBC_URL [DIR]"]
 * </pre>
 *
 * <p>JDBC_URL defaults to {@code SAFERETRY_PG_URL} or the local server; the run uses a fresh schema
 * and drops it. DIR (default {@code target/bench}) is where the file store writes.
 */
public final class JdbcKeyStoreBenchmark {
  private static final IntentScope SCOPE = new IntentScope("bench", "POST /v1/charges");
  private static final Duration SLICE = Duration.ofMillis(1500);
  private static final int ROUNDS = 5;
  private static final Duration WARM_UP = Duration.ofSeconds(1);
  private static final int[] CALLERS = {1, 8, 32};
  private static final int SEQUENTIAL = 1_000;

  private final AtomicInteger ids = new AtomicInteger();
  private final CpuTimes cpu;

  private JdbcKeyStoreBenchmark(CpuTimes cpu) {
    this.cpu = cpu;
  }

  public static void main(String[] args) throws Exception {
    String url =
        args.length > 0
            ? args[0]
            : System.getenv()
                .getOrDefault(
                    "SAFERETRY_PG_URL", "jdbc:postgresql://127.0.0.1:5432/test?user=postgres");
    Path dir = Path.of(args.length > 1 ? args[1] : "target/bench").toAbsolutePath();
    Files.createDirectories(dir);
    String schema = "sr_bench_" + Long.toHexString(System.nanoTime());
    try (Connection c = DriverManager.getConnection(url);
        Statement st = c.createStatement()) {
      st.execute("CREATE SCHEMA " + schema);
    }
    try {
      new JdbcKeyStoreBenchmark(CpuTimes.forUrl(url)).run(url, schema, dir);
    } finally {
      try (Connection c = DriverManager.getConnection(url);
          Statement st = c.createStatement()) {
        st.execute("DROP SCHEMA " + schema + " CASCADE");
      }
    }
  }

  private void run(String url, String schema, Path dir) throws Exception {
    System.out.printf(
        "SafeRetry JDBC key store benchmark (%d cores, Java %s)%n",
        Runtime.getRuntime().availableProcessors(), System.getProperty("java.version"));
    Path files = Files.createTempDirectory(dir, "file-store");
    try (HikariDataSource pool = pool(url, 32)) {
      CountingDataSource counted = new CountingDataSource(pool);
      try (JdbcKeyStore jdbc =
              JdbcKeyStore.builder(counted).schema(schema).createSchema(true).build();
          FileKeyStore file = FileKeyStore.open(files)) {
        System.out.println();
        System.out.printf(
            "raw single-row INSERT, auto-commit, one caller: %.1f µs%n",
            rawInsertMicros(pool, schema));
        sequentialRoundTrips(jdbc, counted);
        Measured pg = new Measured("JdbcKeyStore (PostgreSQL)", jdbc, counted);
        Measured fs = new Measured("FileKeyStore", file, null);
        for (Measured m : List.of(pg, fs)) {
          for (int callers : CALLERS) {
            runCallers(m.store, callers, WARM_UP);
          }
        }
        for (int round = 0; round < ROUNDS; round++) {
          for (Measured m : List.of(pg, fs)) {
            for (int i = 0; i < CALLERS.length; i++) {
              m.slice(round, i);
            }
          }
        }
        System.out.println();
        System.out.println(
            "| store | callers | intents/s | round trips per intent | JVM CPU per intent |"
                + " server CPU per intent | speed-up vs 1 caller | target |");
        System.out.println("|---|---:|---:|---:|---:|---:|---:|---|");
        pg.print();
        fs.print();
        System.out.println();
        System.out.println(
            "Every slice, round by round (intents/s), and the speed-up within each round:");
        pg.printSlices();
        fs.printSlices();
      }
    } finally {
      try (var list = Files.list(files)) {
        for (Path p : list.toList()) {
          Files.deleteIfExists(p);
        }
      }
      Files.deleteIfExists(files);
    }
  }

  /** One store's slices: the callers levels take turns with the other store's, round by round. */
  private final class Measured {
    final String name;
    final KeyStore store;
    final CountingDataSource counted;
    final double[][] rates = new double[CALLERS.length][ROUNDS];
    final double[][] trips = new double[CALLERS.length][ROUNDS];
    final double[][] jvmCpu = new double[CALLERS.length][ROUNDS];
    final double[][] serverCpu = new double[CALLERS.length][ROUNDS];

    Measured(String name, KeyStore store, CountingDataSource counted) {
      this.name = name;
      this.store = store;
      this.counted = counted;
    }

    void slice(int round, int level) throws Exception {
      long before = counted == null ? 0 : counted.roundTrips();
      long jvmBefore = cpu.jvmMicros();
      long serverBefore = cpu.serverMicros();
      long start = System.nanoTime();
      int intents = runCallers(store, CALLERS[level], SLICE);
      rates[level][round] = intents / ((System.nanoTime() - start) / 1e9);
      long after = counted == null ? 0 : counted.roundTrips();
      trips[level][round] = (after - before) / (double) intents;
      jvmCpu[level][round] = (cpu.jvmMicros() - jvmBefore) / (double) intents;
      serverCpu[level][round] = (cpu.serverMicros() - serverBefore) / (double) intents;
    }

    void print() {
      double base = median(rates[0]);
      for (int i = 0; i < CALLERS.length; i++) {
        double rate = median(rates[i]);
        String target =
            CALLERS[i] == 32 ? "≥ 5.0× (" + (rate >= 5 * base ? "met" : "not met") + ")" : "";
        System.out.printf(
            "| %s | %d | %,.0f | %s | %s | %s | %.1f× | %s |%n",
            name,
            CALLERS[i],
            rate,
            counted == null ? "–" : String.format("%.2f", median(trips[i])),
            cpu.jvmKnown() ? String.format("%.0f µs", median(jvmCpu[i])) : "–",
            counted == null || !cpu.serverKnown()
                ? "–"
                : String.format("%.0f µs", median(serverCpu[i])),
            rate / base,
            target);
      }
    }

    void printSlices() {
      for (int i = 0; i < CALLERS.length; i++) {
        StringBuilder line = new StringBuilder();
        for (double rate : rates[i]) {
          line.append(String.format("%,8.0f", rate));
        }
        System.out.printf("%-26s %2d callers:%s%n", name, CALLERS[i], line);
      }
      StringBuilder ratios = new StringBuilder();
      for (int round = 0; round < ROUNDS; round++) {
        ratios.append(String.format("%7.1f×", rates[CALLERS.length - 1][round] / rates[0][round]));
      }
      System.out.printf("%-26s speed-up at %d:%s%n", name, CALLERS[CALLERS.length - 1], ratios);
    }
  }

  private static double median(double[] values) {
    double[] sorted = values.clone();
    Arrays.sort(sorted);
    return sorted[sorted.length / 2];
  }

  private static HikariDataSource pool(String url, int size) {
    HikariConfig config = new HikariConfig();
    config.setJdbcUrl(url);
    config.setMaximumPoolSize(size);
    config.setMinimumIdle(size);
    return new HikariDataSource(config);
  }

  /** One autocommitted INSERT of a small row per round trip: what any durable begin costs. */
  private static double rawInsertMicros(HikariDataSource pool, String schema) throws Exception {
    try (Connection c = pool.getConnection();
        Statement st = c.createStatement()) {
      st.execute("CREATE TABLE " + schema + ".raw (id BIGINT PRIMARY KEY, v VARCHAR(64))");
      try (PreparedStatement ps =
          c.prepareStatement("INSERT INTO " + schema + ".raw VALUES (?, ?)")) {
        long start = 0;
        for (int i = -100; i < SEQUENTIAL; i++) {
          if (i == 0) {
            start = System.nanoTime();
          }
          ps.setLong(1, i);
          ps.setString(2, IdempotencyKey.random().value());
          ps.executeUpdate();
        }
        return (System.nanoTime() - start) / 1_000.0 / SEQUENTIAL;
      }
    }
  }

  private void sequentialRoundTrips(KeyStore store, CountingDataSource counted) {
    long begins = 0;
    long completes = 0;
    for (int i = 0; i < SEQUENTIAL; i++) {
      long before = counted.roundTrips();
      IntentRecord begun = store.begin(candidate()).record();
      long between = counted.roundTrips();
      store.complete(begun.complete(IntentState.SUCCEEDED, 201, "ch_" + i));
      begins += between - before;
      completes += counted.roundTrips() - between;
    }
    long again = counted.roundTrips();
    IntentRecord existing = candidate();
    store.begin(existing);
    long first = counted.roundTrips();
    store.begin(existing); // a re-drive of a recorded intent
    System.out.printf(
        "sequential round trips: begin of a new intent %.2f (target 1), complete %.2f,"
            + " begin of a recorded intent %d%n",
        begins / (double) SEQUENTIAL,
        completes / (double) SEQUENTIAL,
        counted.roundTrips() - first);
    if (first - again != 1) {
      System.out.println("(unexpected: a new intent's begin took " + (first - again) + ")");
    }
  }

  private int runCallers(KeyStore store, int callers, Duration duration) throws Exception {
    long deadline = System.nanoTime() + duration.toNanos();
    AtomicInteger done = new AtomicInteger();
    CountDownLatch finished = new CountDownLatch(callers);
    List<Thread> threads = new ArrayList<>();
    for (int t = 0; t < callers; t++) {
      Thread thread =
          new Thread(
              () -> {
                while (System.nanoTime() < deadline) {
                  IntentRecord begun = store.begin(candidate()).record();
                  store.complete(begun.complete(IntentState.SUCCEEDED, 201, "ch_1"));
                  done.incrementAndGet();
                }
                finished.countDown();
              });
      threads.add(thread);
      thread.start();
    }
    finished.await();
    return done.get();
  }

  private IntentRecord candidate() {
    String id = "order-" + ids.incrementAndGet() + "/charge";
    String fingerprint = "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08";
    return IntentRecord.pending(
        SCOPE, id, IdempotencyKey.random(), fingerprint, Instant.now(), Duration.ofHours(24));
  }
}
