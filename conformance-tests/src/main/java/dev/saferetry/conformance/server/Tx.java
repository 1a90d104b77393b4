package dev.saferetry.conformance.server;

import java.sql.Connection;
import java.sql.SQLException;

/**
 * One database transaction on a pooled connection; rolled back on close unless committed. Confined
 * to one thread.
 */
final class Tx implements AutoCloseable {
  private final Database database;
  private final Connection connection;
  private boolean done;

  Tx(Database database, Connection connection) {
    this.database = database;
    this.connection = connection;
  }

  Connection connection() {
    return connection;
  }

  void commit() throws SQLException {
    connection.commit();
    done = true;
  }

  void rollback() throws SQLException {
    connection.rollback();
    done = true;
  }

  @Override
  public void close() throws SQLException {
    boolean healthy = true;
    try {
      if (!done) {
        connection.rollback();
      }
    } catch (SQLException e) {
      healthy = false;
    }
    if (healthy) {
      database.release(connection);
    } else {
      connection.close();
    }
  }
}
