package dev.saferetry.jdbc.internal;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/**
 * Retention in bounded batches that any number of instances may run at once. A batch is one
 * transaction: a locking read picks the keys of at most {@code limit} rows past a bound, oldest
 * first along the index on that bound (so a batch reads about as many rows as it deletes, and never
 * the whole table), skipping rows another transaction holds ({@code FOR UPDATE SKIP LOCKED}), so
 * concurrent purges take different rows instead of waiting for each other; then each picked row is
 * deleted by its key, with the bound repeated so that a row that changed in between is kept. Only
 * row locks are taken, on at most {@code limit} rows per transaction; PostgreSQL and InnoDB never
 * escalate them to a table lock, and H2 takes none. On PostgreSQL both steps are one statement
 * ({@link #batch(Connection, String, long, int)}).
 *
 * <p>Stateless and thread-safe.
 */
public final class Purge {
  /** The largest batch a store accepts. */
  public static final int MAX_BATCH = 100_000;

  private Purge() {}

  /**
   * Checks a configured batch size.
   *
   * @throws IllegalArgumentException naming {@code purgeBatchSize} unless 1 to {@value #MAX_BATCH}
   */
  public static int checkBatchSize(int rows) {
    if (rows < 1 || rows > MAX_BATCH) {
      throw new IllegalArgumentException("purgeBatchSize must be 1.." + MAX_BATCH);
    }
    return rows;
  }

  /**
   * Deletes one batch with one statement that picks and deletes the rows, as {@link
   * #batch(Connection, String, String, long, int)} does in two; run it in a transaction.
   *
   * @param delete parameters: {@code bound}, {@code limit}, then {@code bound} again
   * @return how many rows were deleted
   */
  public static int batch(Connection c, String delete, long bound, int limit) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement(delete)) {
      ps.setLong(1, bound);
      ps.setInt(2, limit);
      ps.setLong(3, bound);
      return ps.executeUpdate();
    }
  }

  /**
   * Deletes one batch; run it in a transaction.
   *
   * @param select returns the key columns (text) of due rows; parameters: {@code bound}, {@code
   *     limit}
   * @param delete deletes one row; parameters: its key columns, then {@code bound}
   * @return how many rows were picked, all of which were deleted
   */
  public static int batch(Connection c, String select, String delete, long bound, int limit)
      throws SQLException {
    List<String[]> keys = new ArrayList<>();
    try (PreparedStatement ps = c.prepareStatement(select)) {
      ps.setLong(1, bound);
      ps.setInt(2, limit);
      try (ResultSet rs = ps.executeQuery()) {
        int columns = rs.getMetaData().getColumnCount();
        while (rs.next()) {
          String[] key = new String[columns];
          for (int i = 0; i < columns; i++) {
            key[i] = rs.getString(i + 1);
          }
          keys.add(key);
        }
      }
    }
    if (keys.isEmpty()) {
      return 0;
    }
    try (PreparedStatement ps = c.prepareStatement(delete)) {
      for (String[] key : keys) {
        for (int i = 0; i < key.length; i++) {
          ps.setString(i + 1, key[i]);
        }
        ps.setLong(key.length + 1, bound);
        ps.addBatch();
      }
      ps.executeBatch(); // the rows are locked by this transaction: each delete succeeds
    }
    return keys.size();
  }
}
