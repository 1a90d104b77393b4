package dev.saferetry.jdbc.outbox;

import java.sql.Connection;
import java.sql.SQLException;

/**
 * An H2 function that commits the transaction it is called in, as a stored procedure can: public,
 * because H2 calls it by reflection.
 */
public final class CommittingFunction {
  private CommittingFunction() {}

  /**
   * Commits the calling session's transaction.
   *
   * @param session the connection H2 passes to a function
   * @throws SQLException if the commit fails
   */
  public static void commit(Connection session) throws SQLException {
    session.commit();
  }
}
