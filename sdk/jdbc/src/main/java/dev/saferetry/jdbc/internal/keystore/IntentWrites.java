package dev.saferetry.jdbc.internal.keystore;

import dev.saferetry.idempotency.BeginResult;
import dev.saferetry.idempotency.IntentRecord;
import dev.saferetry.idempotency.KeyStoreException;
import dev.saferetry.jdbc.internal.ColumnText;
import dev.saferetry.jdbc.internal.Combiner;
import dev.saferetry.jdbc.internal.Deadline;
import dev.saferetry.jdbc.internal.Dialect;
import dev.saferetry.jdbc.internal.Jdbc;
import java.util.Collections;

/**
 * The key store's begins and completions on connections of its own. On PostgreSQL, concurrent
 * callers are grouped (see {@link Combiner} and {@link PostgresBatch}): a lone caller still costs
 * one round trip per begin, while many callers share statements and commits. H2 and MariaDB write
 * each intent on its own connection.
 *
 * <p>Values are checked in the caller's thread, before any grouping, so a value that cannot be
 * stored fails only its own call.
 *
 * <p>Thread-safe.
 */
public final class IntentWrites {
  /**
   * Statements of one kind in flight at once per store: few enough to batch well under load, more
   * than one so that a begin waiting for another transaction's uncommitted row delays only the
   * callers batched with it.
   */
  private static final int WRITERS = 2;

  private final Jdbc jdbc;
  private final IntentTable table;
  private final Combiner<IntentRow, BeginResult> begins;
  private final Combiner<IntentRecord, Boolean> completes;

  public IntentWrites(Jdbc jdbc, IntentTable table, String schema, String name) {
    this.jdbc = jdbc;
    this.table = table;
    if (jdbc.dialect() == Dialect.POSTGRESQL) {
      PostgresBatch batch = new PostgresBatch(table, schema, name);
      begins =
          new Combiner<>(
              PostgresBatch.MAX_ROWS,
              WRITERS,
              (rows, deadline) -> jdbc.autoCommit("begin", deadline, c -> batch.beginAll(c, rows)),
              () -> queuedTooLong("begin"));
      completes =
          new Combiner<>(
              PostgresBatch.MAX_ROWS,
              WRITERS,
              (records, deadline) ->
                  jdbc.autoCommit(
                      "complete",
                      deadline,
                      c -> {
                        batch.completeAll(c, records);
                        return Collections.nCopies(records.size(), true);
                      }),
              () -> queuedTooLong("complete"));
    } else {
      begins = null;
      completes = null;
    }
  }

  /**
   * Records the row's candidate unless a live record exists, every wait bounded by {@code
   * deadline}.
   *
   * @throws IllegalArgumentException if a value cannot be stored exactly; nothing is written
   * @throws KeyStoreException if the database failed, or the deadline ended a wait
   */
  public BeginResult begin(IntentRow row, Deadline deadline) {
    IntentRows.check(row);
    return begins == null
        ? jdbc.autoCommit("begin", deadline, c -> table.begin(c, row))
        : begins.submit(row, deadline);
  }

  /**
   * Records an outcome if the stored record still has its key, every wait bounded by {@code
   * deadline}.
   *
   * @throws IllegalArgumentException if the resource id cannot be stored exactly
   * @throws KeyStoreException if the database failed, or the deadline ended a wait
   */
  public void complete(IntentRecord completed, Deadline deadline) {
    ColumnText.check("resource id", completed.resourceId(), IntentRows.MAX_RESOURCE_ID);
    if (completes == null) {
      jdbc.autoCommit(
          "complete",
          deadline,
          c -> {
            table.complete(c, completed);
            return null;
          });
    } else {
      completes.submit(completed, deadline);
    }
  }

  private static KeyStoreException queuedTooLong(String operation) {
    return new KeyStoreException(
        operation
            + " gave up at the call's deadline while other writes of the store held every"
            + " connection slot; nothing of it was written");
  }

  /** Checks a row as {@link #begin} does, for a begin on the caller's own connection. */
  public static void check(IntentRow row) {
    IntentRows.check(row);
  }
}
