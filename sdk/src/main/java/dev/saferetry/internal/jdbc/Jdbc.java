package dev.saferetry.internal.jdbc;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.function.BiFunction;
import javax.sql.DataSource;

/**
 * Runs a store's work on a connection borrowed from the user's data source, whatever auto-commit
 * mode the pool hands out, and runs it again when it lost a race the database reported as transient
 * (a deadlock or a serialization failure). A {@link SQLException} that remains becomes the store's
 * own exception, with a message that names the operation and the SQL state but never a value.
 *
 * <p>Thread-safe.
 */
public final class Jdbc {
  /** Work on a connection. */
  @FunctionalInterface
  public interface Work<T> {
    /** Does the work; the caller commits. */
    T run(Connection c) throws SQLException;
  }

  private static final int TRIES = 4;

  private final DataSource dataSource;
  private final Dialect dialect;
  private final BiFunction<String, SQLException, RuntimeException> failure;

  /**
   * @param failure turns a message and the last SQL failure into the store's exception
   */
  public Jdbc(
      DataSource dataSource,
      Dialect dialect,
      BiFunction<String, SQLException, RuntimeException> failure) {
    this.dataSource = dataSource;
    this.dialect = dialect;
    this.failure = failure;
  }

  public Dialect dialect() {
    return dialect;
  }

  /**
   * Runs {@code work} as it comes: in auto-commit mode one statement is one durable transaction; on
   * a connection that is not in auto-commit mode the work is committed afterwards.
   */
  public <T> T autoCommit(String operation, Work<T> work) {
    return withRetries(
        operation,
        c -> {
          if (c.getAutoCommit()) {
            return work.run(c);
          }
          return committed(c, work);
        });
  }

  /** Runs {@code work} in one transaction and commits it. */
  public <T> T transaction(String operation, Work<T> work) {
    return withRetries(
        operation,
        c -> {
          boolean auto = c.getAutoCommit();
          if (auto) {
            c.setAutoCommit(false);
          }
          try {
            return committed(c, work);
          } finally {
            if (auto) {
              c.setAutoCommit(true);
            }
          }
        });
  }

  /** Turns a failure on the caller's own connection into the store's exception. */
  public RuntimeException failed(String operation, SQLException e) {
    return failure.apply(message(operation, e), e);
  }

  private static <T> T committed(Connection c, Work<T> work) throws SQLException {
    try {
      T result = work.run(c);
      c.commit();
      return result;
    } catch (SQLException | RuntimeException e) {
      try {
        c.rollback();
      } catch (SQLException suppressed) {
        e.addSuppressed(suppressed);
      }
      throw e;
    }
  }

  private <T> T withRetries(String operation, Work<T> work) {
    for (int attempt = 1; ; attempt++) {
      try (Connection c = dataSource.getConnection()) {
        return work.run(c);
      } catch (SQLException e) {
        if (attempt >= TRIES || !dialect.isTransient(e)) {
          throw failed(operation, e);
        }
      }
    }
  }

  private String message(String operation, SQLException e) {
    return operation
        + " failed on "
        + dialect
        + " (SQL state "
        + e.getSQLState()
        + ", error "
        + e.getErrorCode()
        + ")";
  }
}
