package dev.saferetry.jdbc.internal;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Savepoint;
import java.util.function.BiFunction;
import javax.sql.DataSource;

/**
 * Runs a component's work on a connection borrowed from the user's data source, whatever
 * auto-commit mode the pool hands out, and runs it again when it lost a race the database reported
 * as transient (a deadlock or a serialization failure). A {@link SQLException} that remains becomes
 * the store's own exception, with a message that names the operation and the SQL state but never a
 * value, and a cause whose messages carry no connection URL credentials.
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

  /** Where connections come from: a {@link DataSource}, or a JDBC URL for tools. */
  @FunctionalInterface
  public interface Source {
    /** Opens or borrows a connection; the caller closes it. */
    Connection open() throws SQLException;
  }

  private static final int TRIES = 4;

  private final Source source;
  private final Dialect dialect;
  private final BiFunction<String, SQLException, RuntimeException> failure;

  /**
   * @param failure turns a message and the last SQL failure into the store's exception
   */
  public Jdbc(
      Source source, Dialect dialect, BiFunction<String, SQLException, RuntimeException> failure) {
    this.source = source;
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
    return autoCommit(operation, Deadline.NONE, work);
  }

  /**
   * Runs {@code work} as {@link #autoCommit(String, Work)} does, with every wait bounded by {@code
   * deadline} (see {@link Deadline}); a lost race is not run again once the deadline has passed.
   */
  public <T> T autoCommit(String operation, Deadline deadline, Work<T> work) {
    return withRetries(
        operation,
        deadline,
        c ->
            deadline.run(
                c,
                dialect,
                d -> {
                  if (d.getAutoCommit()) {
                    return work.run(d);
                  }
                  return committed(d, work);
                }));
  }

  /**
   * Runs {@code work} in one transaction and commits it; runs it again, in a new transaction, when
   * the database reported a lost race.
   */
  public <T> T transaction(String operation, Work<T> work) {
    return transaction(operation, Deadline.NONE, work);
  }

  /**
   * Runs {@code work} as {@link #transaction(String, Work)} does, with every wait bounded by {@code
   * deadline} (see {@link Deadline}).
   */
  public <T> T transaction(String operation, Deadline deadline, Work<T> work) {
    return withRetries(
        operation, deadline, c -> deadline.run(c, dialect, d -> inTransaction(d, work)));
  }

  /**
   * Runs {@code work} in one transaction and commits it, once: for work that must not be repeated
   * behind its caller's back, such as a user's handler. Any failure, an {@link Error} included,
   * rolls the transaction back; a {@link RuntimeException} or an {@link Error} propagates as it is.
   */
  public <T> T transactionOnce(String operation, Work<T> work) {
    try (Connection c = source.open()) {
      return inTransaction(c, work);
    } catch (SQLException e) {
      throw failed(operation, e);
    }
  }

  /** Borrows a connection for work that manages its own transaction; the caller closes it. */
  public Connection connect() throws SQLException {
    return source.open();
  }

  /**
   * Runs {@code batch} in transactions of its own, each committed, until one does fewer than {@code
   * limit} rows (see {@link Purge}).
   *
   * @return the rows of all batches
   */
  public int inBatches(String operation, int limit, Work<Integer> batch) {
    int total = 0;
    int rows;
    do {
      rows = transaction(operation, batch);
      total += rows;
    } while (rows == limit);
    return total;
  }

  /**
   * Turns a failure into the store's exception; the cause keeps no connection URL credentials (see
   * {@link JdbcSecrets}).
   */
  public RuntimeException failed(String operation, SQLException e) {
    return failure.apply(message(operation, e), JdbcSecrets.scrub(e));
  }

  private static <T> T inTransaction(Connection c, Work<T> work) throws SQLException {
    boolean auto = c.getAutoCommit();
    if (auto) {
      c.setAutoCommit(false);
    }
    try {
      return committed(c, work);
    } finally {
      if (auto) {
        try {
          c.setAutoCommit(true);
        } catch (SQLException e) {
          // The work's outcome stands; the connection is closed next and a pool resets or drops it.
        }
      }
    }
  }

  private static <T> T committed(Connection c, Work<T> work) throws SQLException {
    try {
      T result = work.run(c);
      c.commit();
      return result;
    } catch (SQLException | RuntimeException | Error e) {
      rollbackQuietly(c, null, e);
      throw e;
    }
  }

  /**
   * Rolls back to {@code savepoint}, or the whole transaction when it is null (unless the
   * connection is in auto-commit mode), keeping {@code failure} as the error that is reported: a
   * rollback that fails too is added to it as suppressed.
   */
  public static void rollbackQuietly(Connection c, Savepoint savepoint, Throwable failure) {
    try {
      if (savepoint != null) {
        c.rollback(savepoint);
      } else if (!c.getAutoCommit()) {
        c.rollback();
      }
    } catch (SQLException e) {
      failure.addSuppressed(JdbcSecrets.scrub(e));
    }
  }

  private <T> T withRetries(String operation, Deadline deadline, Work<T> work) {
    for (int attempt = 1; ; attempt++) {
      try (Connection c = source.open()) {
        return work.run(c);
      } catch (SQLException e) {
        if (attempt >= TRIES || !dialect.isTransient(e) || deadline.passed()) {
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
        + ")"
        + (dialect.isTimeout(e)
            ? ": the database stopped a wait (a row another transaction holds, or a slow server) at"
                + " the call's deadline or its own lock timeout"
            : "");
  }
}
