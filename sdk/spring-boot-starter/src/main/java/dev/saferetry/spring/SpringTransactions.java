package dev.saferetry.spring;

import java.sql.Connection;
import javax.sql.DataSource;
import org.springframework.jdbc.datasource.DataSourceUtils;
import org.springframework.transaction.support.TransactionSynchronizationManager;

/** The connection of the Spring-managed transaction a caller is in, on a given DataSource. */
final class SpringTransactions {
  private SpringTransactions() {}

  /**
   * {@return the connection of the current Spring transaction on {@code dataSource}} Released by
   * the transaction manager when the transaction ends; never committed or closed here.
   *
   * @throws IllegalStateException if no Spring-managed transaction is active on this thread
   */
  static Connection current(DataSource dataSource, String what) {
    if (!TransactionSynchronizationManager.isActualTransactionActive()
        || TransactionSynchronizationManager.isCurrentTransactionReadOnly()) {
      throw new IllegalStateException(
          what
              + " needs a Spring-managed read-write transaction: call it from a @Transactional"
              + " method (or inside TransactionTemplate.execute) so it commits or rolls back with"
              + " your own rows");
    }
    Connection c = DataSourceUtils.getConnection(dataSource);
    try {
      if (c.getAutoCommit()) {
        throw new IllegalStateException(
            what
                + " found the transaction's connection in auto-commit mode: the active transaction"
                + " manager does not manage this DataSource");
      }
    } catch (java.sql.SQLException e) {
      DataSourceUtils.releaseConnection(c, dataSource);
      throw new IllegalStateException(what + ": the connection failed: " + e.getMessage(), e);
    }
    return c;
  }

  static void release(Connection c, DataSource dataSource) {
    DataSourceUtils.releaseConnection(c, dataSource);
  }
}
