package dev.saferetry.jdbc.internal;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Optional;
import java.util.function.IntFunction;

/**
 * The schema version of each table the JDBC stores own, kept in one small table per database
 * schema, {@value #TABLE}: one row per component (a store's table name) with the version its tables
 * have and the oldest version of the code that can still use them ({@code min_reader}), so that a
 * fleet can be upgraded one instance at a time when a new version only adds to the old one.
 *
 * <p>Installing and upgrading run under a lock (an advisory lock on PostgreSQL, a named lock on
 * MariaDB, a lock in this JVM for the embedded H2), so that any number of instances starting at
 * once create the tables exactly once.
 *
 * <p>Thread-safe: all state is in the database.
 */
final class SchemaVersions {
  /** The version table's name. */
  public static final String TABLE = SqlNames.VERSIONS_TABLE;

  /** H2 runs in the application's process: a lock in this JVM serialises its installs. */
  private static final Object H2_LOCK = new Object();

  /**
   * A component's recorded version.
   *
   * @param version the version of its tables
   * @param minReader the oldest code version that can use them
   */
  public record Found(int version, int minReader) {}

  private final Dialect dialect;
  private final String table;

  /** Versions kept in {@code schema} (null: the connection's current one). */
  public SchemaVersions(Dialect dialect, String schema) {
    this.dialect = dialect;
    this.table = SqlNames.qualify(schema, TABLE);
  }

  /**
   * Returns the component's recorded version, or empty when it (or the version table) is absent.
   */
  public Optional<Found> read(Connection c, String component) throws SQLException {
    try (PreparedStatement ps =
        c.prepareStatement("SELECT version, min_reader FROM " + table + " WHERE component = ?")) {
      ps.setString(1, component);
      try (ResultSet rs = ps.executeQuery()) {
        return rs.next() ? Optional.of(new Found(rs.getInt(1), rs.getInt(2))) : Optional.empty();
      }
    } catch (SQLException e) {
      if (dialect.isMissingTable(e)) {
        return Optional.empty();
      }
      throw e;
    }
  }

  /**
   * Brings a component to {@code target}: runs {@code step.apply(v)} for every version {@code v}
   * after the recorded one (1 creates the tables), each of which records its version, and records
   * the new version if the migrations did not. Does nothing when the component is already at {@code
   * target} or newer. Commits.
   *
   * @param step the script that takes the tables from version {@code v - 1} to {@code v}
   * @return what was recorded before, or empty when the component was new
   */
  public Optional<Found> install(
      Connection c, String component, int target, int minReader, IntFunction<SqlScript> step)
      throws SQLException {
    if (dialect == Dialect.H2) {
      synchronized (
          H2_LOCK) { // H2's own DDL is not safe against a concurrent CREATE ... IF NOT EXISTS
        return installLocked(c, component, target, minReader, step);
      }
    }
    return installLocked(c, component, target, minReader, step);
  }

  private Optional<Found> installLocked(
      Connection c, String component, int target, int minReader, IntFunction<SqlScript> step)
      throws SQLException {
    boolean autoCommit = c.getAutoCommit();
    c.setAutoCommit(dialect != Dialect.POSTGRESQL); // PostgreSQL: DDL in one transaction
    String lock = "saferetry_" + Integer.toHexString((table + "/" + component).hashCode());
    try {
      lock(c, lock);
      try (Statement st = c.createStatement()) {
        st.execute(
            "CREATE TABLE IF NOT EXISTS "
                + table
                + " (component VARCHAR(128) NOT NULL PRIMARY KEY, version INTEGER NOT NULL,"
                + " min_reader INTEGER NOT NULL)"
                + dialect.tableOptions());
      }
      Optional<Found> before = read(c, component);
      int from = before.map(Found::version).orElse(0);
      for (int v = from + 1; v <= target; v++) {
        step.apply(v).run(c);
      }
      if (from < target) {
        // A migration records its own version; one found older still (a damaged record) is set.
        Optional<Found> after = read(c, component);
        if (after.isEmpty() || after.get().version() < target) {
          record(c, component, after.isPresent(), target, minReader);
        }
      }
      if (!c.getAutoCommit()) {
        c.commit();
      }
      return before;
    } catch (SQLException | RuntimeException e) {
      if (!c.getAutoCommit()) {
        c.rollback();
      }
      throw e;
    } finally {
      unlock(c, lock);
      c.setAutoCommit(autoCommit);
    }
  }

  private void record(Connection c, String component, boolean exists, int version, int minReader)
      throws SQLException {
    String sql =
        exists
            ? "UPDATE " + table + " SET version = ?, min_reader = ? WHERE component = ?"
            : "INSERT INTO " + table + " (version, min_reader, component) VALUES (?, ?, ?)";
    try (PreparedStatement ps = c.prepareStatement(sql)) {
      ps.setInt(1, version);
      ps.setInt(2, minReader);
      ps.setString(3, component);
      ps.executeUpdate();
    } catch (SQLException e) {
      if (exists || !dialect.isDuplicateKey(e)) {
        throw e;
      } // H2 (no lock): another instance recorded the same version a moment ago
    }
  }

  private void lock(Connection c, String name) throws SQLException {
    String sql =
        switch (dialect) {
          case POSTGRESQL -> "SELECT pg_advisory_xact_lock(?)";
          case MARIADB -> "SELECT GET_LOCK(?, 60)";
          case H2 -> null; // see H2_LOCK
        };
    if (sql == null) {
      return;
    }
    try (PreparedStatement ps = c.prepareStatement(sql)) {
      if (dialect == Dialect.POSTGRESQL) {
        ps.setLong(1, name.hashCode());
      } else {
        ps.setString(1, name);
      }
      try (ResultSet rs = ps.executeQuery()) {
        if (dialect == Dialect.MARIADB && (!rs.next() || rs.getInt(1) != 1)) {
          throw new SQLException("timed out waiting for schema lock " + name);
        }
      }
    }
  }

  private void unlock(Connection c, String name) throws SQLException {
    if (dialect == Dialect.MARIADB) {
      try (PreparedStatement ps = c.prepareStatement("SELECT RELEASE_LOCK(?)")) {
        ps.setString(1, name);
        ps.executeQuery().close();
      }
    } // PostgreSQL's transaction-scoped lock ends with the transaction
  }
}
