package dev.saferetry.jdbc;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.saferetry.jdbc.keystore.JdbcKeyStore;
import dev.saferetry.jdbc.keystore.JdbcKeyStoreBuilder;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;
import org.junit.jupiter.api.Assumptions;

/**
 * A private, uniquely named schema for one test on one of the supported databases, dropped on
 * close, for the key store's and the inbox's tests alike. The servers are shared with other builds:
 * a test never touches anything it did not create. PostgreSQL and MariaDB are found through {@code
 * SAFERETRY_PG_URL} and {@code SAFERETRY_MARIADB_URL} (defaults: the local servers); when one does
 * not answer, the test is skipped with a message. H2 always works.
 *
 * <p>Not thread-safe: one test owns it.
 */
public final class TestDatabase implements AutoCloseable {
  /** The databases under test. */
  public enum Db {
    H2,
    POSTGRESQL,
    MARIADB;

    /** A fresh schema on this database; skips the test if the server does not answer. */
    public TestDatabase open() {
      return TestDatabase.open(this, false);
    }

    /** A fresh schema other processes can reach too (H2: a file database with a TCP server). */
    public TestDatabase openShared() {
      return TestDatabase.open(this, true);
    }
  }

  private static final Map<Db, String> UNREACHABLE = new ConcurrentHashMap<>();

  public final Db db;
  public final String url;
  public final String schema;
  private final Path h2Dir;
  private final List<HikariDataSource> pools = new ArrayList<>();
  private final HikariDataSource pool;

  private TestDatabase(Db db, String url, String schema, Path h2Dir) {
    this.db = db;
    this.url = url;
    this.schema = schema;
    this.h2Dir = h2Dir;
    this.pool = newPool(8);
  }

  private static TestDatabase open(Db db, boolean shared) {
    String schema = "sr_" + HexFormat.of().toHexDigits(ThreadLocalRandom.current().nextLong());
    try {
      return switch (db) {
        case H2 -> openH2(schema, shared);
        case POSTGRESQL -> openServer(db, "SAFERETRY_PG_URL", "CREATE SCHEMA " + schema, schema);
        case MARIADB ->
            openServer(db, "SAFERETRY_MARIADB_URL", "CREATE DATABASE " + schema, schema);
      };
    } catch (Exception e) {
      throw new IllegalStateException("cannot prepare a test schema on " + db, e);
    }
  }

  private static TestDatabase openH2(String schema, boolean shared) throws Exception {
    Path dir = shared ? Files.createTempDirectory("saferetry-h2") : null;
    String url =
        shared
            ? "jdbc:h2:file:" + dir.resolve("db") + ";AUTO_SERVER=TRUE"
            : "jdbc:h2:mem:" + schema + ";DB_CLOSE_DELAY=-1";
    try (Connection c = DriverManager.getConnection(url);
        Statement st = c.createStatement()) {
      st.execute("CREATE SCHEMA " + schema);
    }
    return new TestDatabase(Db.H2, url, schema, dir);
  }

  private static TestDatabase openServer(Db db, String env, String create, String schema)
      throws SQLException {
    String url =
        System.getenv()
            .getOrDefault(
                env,
                db == Db.POSTGRESQL
                    ? "jdbc:postgresql://127.0.0.1:5432/test?user=postgres"
                    : "jdbc:mariadb://127.0.0.1:3306/test?user=root");
    String why = UNREACHABLE.get(db);
    Assumptions.assumeTrue(why == null, () -> why);
    DriverManager.setLoginTimeout(3);
    try (Connection c = DriverManager.getConnection(url);
        Statement st = c.createStatement()) {
      st.execute(create);
    } catch (SQLException e) {
      if (e.getSQLState() != null && e.getSQLState().startsWith("08")) {
        String message =
            db + " does not answer at " + env + " (" + e.getMessage() + "); test skipped";
        UNREACHABLE.put(db, message);
        Assumptions.abort(message);
      }
      throw e;
    }
    return new TestDatabase(db, url, schema, null);
  }

  /** The test's connection pool (8 connections). */
  public HikariDataSource pool() {
    return pool;
  }

  /** Another pool on the same database, as a second instance of a service would have. */
  public HikariDataSource newPool(int size) {
    return newPool(size, null);
  }

  /** Another pool whose connections first run {@code initSql} (null: nothing). */
  public HikariDataSource newPool(int size, String initSql) {
    HikariConfig config = new HikariConfig();
    config.setJdbcUrl(url);
    config.setConnectionInitSql(initSql);
    config.setMaximumPoolSize(size);
    config.setMinimumIdle(1);
    config.setPoolName(schema + "-" + pools.size());
    HikariDataSource ds = new HikariDataSource(config);
    pools.add(ds);
    return ds;
  }

  /** The id of the key that seals the tests' outbox rows. */
  public static final String SEAL_KEY_ID = "test-1";

  /** The secret of {@link #SEAL_KEY_ID}: 32 bytes, as a configuration would give it. */
  public static byte[] sealSecret() {
    return "saferetry-test-seal-key-32-bytes".getBytes(java.nio.charset.StandardCharsets.UTF_8);
  }

  /** A builder for a store in this schema that creates its table and seals rows. */
  public JdbcKeyStoreBuilder builder() {
    return JdbcKeyStore.builder()
        .dataSource(pool)
        .schema(schema)
        .createSchema(true)
        .outboxSealKey(SEAL_KEY_ID, sealSecret());
  }

  /** A builder for a store in this schema on {@code dataSource}, that creates its table. */
  public JdbcKeyStoreBuilder builder(javax.sql.DataSource dataSource) {
    return JdbcKeyStore.builder()
        .dataSource(dataSource)
        .schema(schema)
        .createSchema(true)
        .outboxSealKey(SEAL_KEY_ID, sealSecret());
  }

  /** The table qualified with this schema. */
  public String table(String name) {
    return schema + "." + name;
  }

  /** A new connection outside the pools, as a caller holding its own transaction would have. */
  public Connection connect() throws SQLException {
    return DriverManager.getConnection(url);
  }

  /** The first column of the first row of a query, as a number. */
  public long count(String sql) throws SQLException {
    try (Connection c = pool.getConnection();
        Statement st = c.createStatement();
        ResultSet rs = st.executeQuery(sql)) {
      rs.next();
      return rs.getLong(1);
    }
  }

  /** The first column of the first row of a query, as text; null when there is no row. */
  public String text(String sql) throws SQLException {
    try (Connection c = pool.getConnection();
        Statement st = c.createStatement();
        ResultSet rs = st.executeQuery(sql)) {
      return rs.next() ? rs.getString(1) : null;
    }
  }

  /** Runs statements on a fresh auto-commit connection. */
  public void execute(String... sql) throws SQLException {
    try (Connection c = pool.getConnection();
        Statement st = c.createStatement()) {
      for (String s : sql) {
        st.execute(s);
      }
    }
  }

  @Override
  public void close() throws SQLException, IOException {
    pools.forEach(HikariDataSource::close);
    try (Connection c = DriverManager.getConnection(url);
        Statement st = c.createStatement()) {
      switch (db) {
        case H2 -> st.execute("SHUTDOWN");
        case POSTGRESQL -> st.execute("DROP SCHEMA " + schema + " CASCADE");
        case MARIADB -> st.execute("DROP DATABASE " + schema);
      }
    }
    if (h2Dir != null) {
      try (var files = Files.list(h2Dir)) {
        for (Path p : files.toList()) {
          Files.deleteIfExists(p);
        }
      }
      Files.deleteIfExists(h2Dir);
    }
  }
}
