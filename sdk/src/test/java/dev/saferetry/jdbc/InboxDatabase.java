package dev.saferetry.jdbc;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/**
 * One database the inbox tests run on, with table names unique to this run (the servers are shared)
 * that are dropped afterwards. PostgreSQL and MariaDB are read from {@code SAFERETRY_PG_URL} /
 * {@code SAFERETRY_MARIADB_URL} and skipped with a message when they do not answer.
 */
final class InboxDatabase implements AutoCloseable {
  final String url;
  final String prefix = "inbox_t" + UUID.randomUUID().toString().replace("-", "").substring(0, 10);
  private final List<String> tables = new ArrayList<>();

  private InboxDatabase(String url) {
    this.url = url;
  }

  static InboxDatabase h2() {
    return new InboxDatabase("jdbc:h2:mem:" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1");
  }

  static InboxDatabase postgres() {
    return server(
        "SAFERETRY_PG_URL",
        "jdbc:postgresql://127.0.0.1:5432/test?user=postgres&connectTimeout=3",
        "PostgreSQL");
  }

  static InboxDatabase mariadb() {
    return server(
        "SAFERETRY_MARIADB_URL",
        "jdbc:mariadb://127.0.0.1:3306/test?user=root&connectTimeout=3000",
        "MariaDB");
  }

  private static InboxDatabase server(String env, String fallback, String name) {
    String url = System.getenv().getOrDefault(env, fallback);
    try (Connection c = DriverManager.getConnection(url)) {
      assumeTrue(c.isValid(3), name + " at " + env + " is not valid");
    } catch (SQLException e) {
      assumeTrue(
          false,
          name + " does not answer (" + e.getMessage() + "); set " + env + " to run these tests");
    }
    return new InboxDatabase(url);
  }

  /** Returns a table name unique to this run, dropped by {@link #close()}. */
  String table(String suffix) {
    String name = prefix + "_" + suffix;
    tables.add(name);
    return name;
  }

  Connection connect() throws SQLException {
    return DriverManager.getConnection(url);
  }

  void execute(String sql) throws SQLException {
    try (Connection c = connect();
        Statement s = c.createStatement()) {
      s.execute(sql);
    }
  }

  long count(String sql) throws SQLException {
    try (Connection c = connect();
        Statement s = c.createStatement();
        ResultSet rs = s.executeQuery(sql)) {
      rs.next();
      return rs.getLong(1);
    }
  }

  String text(String sql) throws SQLException {
    try (Connection c = connect();
        Statement s = c.createStatement();
        ResultSet rs = s.executeQuery(sql)) {
      return rs.next() ? rs.getString(1) : null;
    }
  }

  @Override
  public void close() throws SQLException {
    for (String table : tables) {
      execute("DROP TABLE IF EXISTS " + table);
    }
    if (url.startsWith("jdbc:h2:mem:")) {
      execute("SHUTDOWN");
    }
  }
}
