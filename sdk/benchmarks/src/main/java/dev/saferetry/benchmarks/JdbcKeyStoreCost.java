package dev.saferetry.benchmarks;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.saferetry.filestore.FileKeyStore;
import dev.saferetry.idempotency.IdempotencyKey;
import dev.saferetry.jdbc.keystore.JdbcKeyStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * {@link JdbcKeyStore} on PostgreSQL, begin + complete per intent ({@link #jdbcStore}), next to a
 * plain JDBC single-row autocommitted {@code INSERT} through the same pool ({@link #rawInsert}:
 * what any durable begin costs) and {@link FileKeyStore} on the same machine ({@link #fileStore}),
 * at 1, 8 and 32 callers; {@link Benchmarks} prints the ratios and the speed-up at 32 callers. The
 * round trips per intent (statement executions, commits and rollbacks at the driver's interface)
 * are printed at the end of each trial.
 *
 * <p>The database is {@code SAFERETRY_PG_URL} (default the local server); each trial uses a fresh
 * schema and drops it. One state per trial, shared by the caller threads.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
public class JdbcKeyStoreCost {
  private final AtomicLong rows = new AtomicLong();
  private final AtomicLong intents = new AtomicLong();
  private String url;
  private String schema;
  private HikariDataSource pool;
  private CountingDataSource counted;
  private JdbcKeyStore jdbc;
  private Path files;
  private FileKeyStore file;

  /** The PostgreSQL URL: {@code SAFERETRY_PG_URL} or the local server. */
  static String url() {
    return System.getenv()
        .getOrDefault("SAFERETRY_PG_URL", "jdbc:postgresql://127.0.0.1:5432/test?user=postgres");
  }

  /** Creates the schema, the pool, the stores and the raw table. */
  @Setup(Level.Trial)
  public void open() throws Exception {
    url = url();
    schema = "sr_bench_" + Long.toHexString(System.nanoTime());
    execute(url, "CREATE SCHEMA " + schema);
    HikariConfig config = new HikariConfig();
    config.setJdbcUrl(url);
    config.setMaximumPoolSize(32);
    config.setMinimumIdle(32);
    pool = new HikariDataSource(config);
    counted = new CountingDataSource(pool);
    jdbc = JdbcKeyStore.builder().dataSource(counted).schema(schema).createSchema(true).build();
    try (Connection c = pool.getConnection();
        Statement st = c.createStatement()) {
      st.execute("CREATE TABLE " + schema + ".raw (id BIGINT PRIMARY KEY, v VARCHAR(64))");
    }
    files = Files.createTempDirectory(FileKeyStoreCost.root(), "file-store");
    file = FileKeyStore.open(files);
  }

  /** Prints the round trips per intent, closes everything and drops the schema. */
  @TearDown(Level.Trial)
  public void close() throws Exception {
    long n = intents.get();
    if (n > 0) {
      System.out.printf(
          "JdbcKeyStore: %.2f round trips per intent over %d intents%n",
          counted.roundTrips() / (double) n, n);
    }
    jdbc.close();
    file.close();
    pool.close();
    execute(url, "DROP SCHEMA " + schema + " CASCADE");
    Scratch.delete(files);
  }

  private static void execute(String url, String sql) throws SQLException {
    try (Connection c = DriverManager.getConnection(url);
        Statement st = c.createStatement()) {
      st.execute(sql);
    }
  }

  /** Plain JDBC: one autocommitted single-row INSERT per call, the baseline. */
  @Benchmark
  public void rawInsert() throws SQLException {
    try (Connection c = pool.getConnection();
        PreparedStatement ps = c.prepareStatement("INSERT INTO " + schema + ".raw VALUES (?, ?)")) {
      ps.setLong(1, rows.incrementAndGet());
      ps.setString(2, IdempotencyKey.random().value());
      ps.executeUpdate();
    }
  }

  /** Begin + complete of one new intent through {@link JdbcKeyStore}. */
  @Benchmark
  public void jdbcStore() {
    Intents.beginAndComplete(jdbc);
    intents.incrementAndGet();
  }

  /** Begin + complete of one new intent through {@link FileKeyStore}, same machine. */
  @Benchmark
  public void fileStore() {
    Intents.beginAndComplete(file);
  }
}
