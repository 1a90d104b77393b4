package dev.saferetry.jdbc.internal;

import java.sql.DatabaseMetaData;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.sql.SQLTimeoutException;
import java.util.Locale;

/**
 * The databases the JDBC stores speak, and the few ways they differ: how an error is recognised,
 * how a schema script is named, and the oldest server version that has every feature the stores
 * rely on ({@code INSERT ... ON CONFLICT}, {@code FOR UPDATE SKIP LOCKED}, {@code INSERT ...
 * RETURNING}).
 *
 * <p>Immutable and thread-safe.
 */
public enum Dialect {
  /** PostgreSQL 12 or newer: the fleet default. */
  POSTGRESQL("postgresql", 12, 0),
  /** H2 2.2 or newer: the embedded default. */
  H2("h2", 2, 2),
  /** MariaDB 10.6 or newer (not MySQL: its collations and upserts differ). */
  MARIADB("mariadb", 10, 6);

  private final String scriptName;
  private final int minMajor;
  private final int minMinor;

  Dialect(String scriptName, int minMajor, int minMinor) {
    this.scriptName = scriptName;
    this.minMajor = minMajor;
    this.minMinor = minMinor;
  }

  /**
   * Recognises the database behind a connection.
   *
   * @throws SQLFeatureNotSupportedException if it is none of these, or older than supported; the
   *     message names the product and version and is safe to show
   */
  public static Dialect detect(DatabaseMetaData meta) throws SQLException {
    String product = meta.getDatabaseProductName();
    String version = meta.getDatabaseProductVersion();
    String name = product == null ? "" : product.toLowerCase(Locale.ROOT);
    Dialect dialect;
    if (name.equals("postgresql")) {
      dialect = POSTGRESQL;
    } else if (name.equals("h2")) {
      dialect = H2;
    } else if (name.equals("mariadb")
        || (name.equals("mysql") && version != null && version.contains("MariaDB"))) {
      dialect = MARIADB;
    } else {
      throw new SQLFeatureNotSupportedException(
          "unsupported database " + product + "; supported: PostgreSQL, H2, MariaDB");
    }
    int major = meta.getDatabaseMajorVersion();
    int minor = meta.getDatabaseMinorVersion();
    if (major < dialect.minMajor || (major == dialect.minMajor && minor < dialect.minMinor)) {
      throw new SQLFeatureNotSupportedException(
          product
              + " "
              + major
              + "."
              + minor
              + " is too old; "
              + dialect.minMajor
              + "."
              + dialect.minMinor
              + " or newer is needed");
    }
    return dialect;
  }

  /**
   * A query of one row and column: the database's clock, in seconds since the epoch with their
   * fraction (a {@code NUMERIC}, {@code DECIMAL} or, on older PostgreSQL, {@code DOUBLE}).
   */
  public String clockQuery() {
    return switch (this) {
      case POSTGRESQL -> "SELECT EXTRACT(EPOCH FROM CLOCK_TIMESTAMP())";
      case H2 -> "SELECT EXTRACT(EPOCH FROM CURRENT_TIMESTAMP)";
      case MARIADB -> "SELECT UNIX_TIMESTAMP(NOW(6))";
    };
  }

  /**
   * An SQL expression of the database's clock in whole milliseconds since the epoch (a BIGINT), as
   * {@link #clockQuery()} reads it, for a statement to record its own time.
   */
  public String clockMillis() {
    return switch (this) {
      case POSTGRESQL -> "CAST(FLOOR(EXTRACT(EPOCH FROM CLOCK_TIMESTAMP()) * 1000) AS BIGINT)";
      case H2 -> "CAST(FLOOR(EXTRACT(EPOCH FROM CURRENT_TIMESTAMP) * 1000) AS BIGINT)";
      case MARIADB -> "CAST(FLOOR(UNIX_TIMESTAMP(NOW(6)) * 1000) AS SIGNED)";
    };
  }

  /** The folder of this database's migrations, e.g. {@code db/saferetry-migration/postgresql/}. */
  public String scriptName() {
    return scriptName;
  }

  /** Whether the error is a unique-key violation, and nothing else. */
  public boolean isDuplicateKey(SQLException e) {
    return switch (this) {
      case POSTGRESQL, H2 -> "23505".equals(e.getSQLState());
      case MARIADB -> e.getErrorCode() == 1062;
    };
  }

  /** Whether the error says a table (or the schema holding it) does not exist. */
  public boolean isMissingTable(SQLException e) {
    String state = e.getSQLState();
    return switch (this) {
      case POSTGRESQL -> "42P01".equals(state) || "3F000".equals(state);
      case H2 -> "42S02".equals(state) || e.getErrorCode() == 42104 || e.getErrorCode() == 90079;
      case MARIADB -> e.getErrorCode() == 1146 || e.getErrorCode() == 1049;
    };
  }

  /**
   * Whether the statement lost a race with another transaction and may simply be run again: a
   * serialization failure or a deadlock (the database rolled the loser back). A lock wait that
   * timed out is not: running it again would only wait as long once more.
   */
  public boolean isTransient(SQLException e) {
    String state = e.getSQLState();
    return "40001".equals(state)
        || "40P01".equals(state)
        || (this == MARIADB && e.getErrorCode() == 1213);
  }

  /**
   * Whether the statement gave up waiting for a row lock another transaction holds: H2's {@code
   * LOCK_TIMEOUT} (HYT00), MariaDB's {@code innodb_lock_wait_timeout} (1205), PostgreSQL's {@code
   * lock_timeout} (55P03).
   */
  public boolean isLockTimeout(SQLException e) {
    return switch (this) {
      case POSTGRESQL -> "55P03".equals(e.getSQLState());
      case H2 -> e.getErrorCode() == 50200;
      case MARIADB -> e.getErrorCode() == 1205;
    };
  }

  /**
   * Whether the statement was stopped for waiting too long: a lock wait timeout (see {@link
   * #isLockTimeout}), or a query timeout ({@link java.sql.Statement#setQueryTimeout}: PostgreSQL's
   * cancel, 57014; MariaDB's {@code max_statement_time}, 1969; H2's, 57014).
   */
  public boolean isTimeout(SQLException e) {
    if (e instanceof SQLTimeoutException || isLockTimeout(e)) {
      return true;
    }
    return switch (this) {
      case POSTGRESQL -> "57014".equals(e.getSQLState());
      case MARIADB -> e.getErrorCode() == 1969;
      case H2 -> e.getErrorCode() == 57014;
    };
  }

  /** Options appended to every {@code CREATE TABLE}: MariaDB needs exact, binary text. */
  public String tableOptions() {
    return this == MARIADB
        ? " ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_nopad_bin"
        : "";
  }

  /**
   * The name to give an index of {@code table} in {@code schema} (null: the connection's): H2 wants
   * it qualified like its table, PostgreSQL refuses that, MariaDB scopes indexes by table.
   */
  public String indexName(String schema, String name) {
    return this == H2 && schema != null ? schema + "." + name : name;
  }
}
