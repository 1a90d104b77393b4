package dev.saferetry.conformance.server;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.regex.Pattern;

/**
 * JDBC access for the reference server: a small connection pool, transactions and the schema. H2
 * (memory or file) and PostgreSQL are supported; several servers may share one PostgreSQL database.
 * Thread-safe.
 */
final class Database implements AutoCloseable {
  private static final int MAX_IDLE = 16;
  private static final String[] SCHEMA = {
    "create table if not exists api_idempotency (tenant_id varchar(200) not null,"
        + " operation varchar(200) not null, idempotency_key varchar(1000) not null,"
        + " request_hash varchar(64) not null, state varchar(16) not null, status_code int,"
        + " response_body varchar, resource_type varchar(40), resource_id varchar(100),"
        + " lock_owner varchar(64), locked_at timestamp with time zone,"
        + " created_at timestamp with time zone not null,"
        + " expires_at timestamp with time zone not null,"
        + " primary key (tenant_id, operation, idempotency_key))",
    "create table if not exists charges (id varchar(100) primary key,"
        + " tenant_id varchar(200) not null, amount bigint not null,"
        + " amount_refunded bigint not null, currency varchar(3) not null,"
        + " status varchar(20) not null, description varchar, customer varchar,"
        + " created bigint not null)",
    "create table if not exists refunds (id varchar(100) primary key,"
        + " tenant_id varchar(200) not null, charge_id varchar(100) not null,"
        + " amount bigint not null, status varchar(20) not null)",
    "create table if not exists side_effects (id varchar(100) primary key,"
        + " tenant_id varchar(200) not null, operation varchar(200) not null,"
        + " description varchar, created_at timestamp with time zone not null)"
  };

  private static final Pattern USER_INFO = Pattern.compile("(//[^/@\\s:?#;]*:)[^@/\\s]+@");
  private static final Pattern SECRET_PARAMETER =
      Pattern.compile("(?i)((?:password|passwd|pwd|secret|token)[a-z0-9_.-]*\\s*=)[^&;)\\s,]+");
  private final String url;
  private final boolean postgres;
  private final LinkedBlockingQueue<Connection> idle = new LinkedBlockingQueue<>();
  private volatile boolean closed;

  Database(String url) {
    this.url = url;
    this.postgres = url.startsWith("jdbc:postgresql:");
    if (!postgres && !url.startsWith("jdbc:h2:")) {
      throw new IllegalArgumentException("jdbcUrl must be jdbc:h2:... or jdbc:postgresql:...");
    }
  }

  /** {@code text} with the passwords of the JDBC URLs in it masked. */
  static String withoutCredentials(String text) {
    if (text == null) {
      return "";
    }
    String out = USER_INFO.matcher(text).replaceAll("$1***@");
    return SECRET_PARAMETER.matcher(out).replaceAll("$1***");
  }

  boolean postgres() {
    return postgres;
  }

  /** Creates the tables if absent (concurrent creators tolerated). */
  void createSchema() throws SQLException {
    try (Tx tx = begin();
        Statement statement = tx.connection().createStatement()) {
      for (String ddl : SCHEMA) {
        statement.execute(ddl);
      }
      tx.commit();
    } catch (SQLException e) {
      if (!"23505".equals(e.getSQLState()) && !"42P07".equals(e.getSQLState())) {
        throw e;
      }
    }
  }

  /** Starts a READ COMMITTED transaction on a pooled connection. */
  Tx begin() throws SQLException {
    Connection connection = idle.poll();
    if (connection == null || connection.isClosed()) {
      connection = open();
    }
    return new Tx(this, connection);
  }

  private Connection open() throws SQLException {
    Connection connection = DriverManager.getConnection(url);
    connection.setAutoCommit(false);
    connection.setTransactionIsolation(Connection.TRANSACTION_READ_COMMITTED);
    if (!postgres) {
      try (Statement statement = connection.createStatement()) {
        statement.execute("set lock_timeout 10000");
      }
    }
    return connection;
  }

  void release(Connection connection) {
    if (closed || idle.size() >= MAX_IDLE || !idle.offer(connection)) {
      closeQuietly(connection);
    }
  }

  /** Closes idle connections (a simulated restart keeps the data, drops the sessions). */
  void closeIdle() {
    List<Connection> drained = new ArrayList<>();
    idle.drainTo(drained);
    drained.forEach(Database::closeQuietly);
  }

  /** Closes the pool; {@code shutdown} also discards a private in-memory H2 database. */
  void close(boolean shutdown) {
    closed = true;
    if (shutdown && !postgres) {
      try (Connection connection = open();
          Statement statement = connection.createStatement()) {
        statement.execute("shutdown");
      } catch (SQLException ignored) {
        // Already gone: nothing to discard.
      }
    }
    closeIdle();
  }

  @Override
  public void close() {
    close(false);
  }

  private static void closeQuietly(Connection connection) {
    try {
      connection.close();
    } catch (SQLException ignored) {
      // Closing a broken connection: nothing left to do.
    }
  }
}
