package dev.saferetry.jdbc.internal.keystore;

import dev.saferetry.idempotency.KeyStoreException;
import dev.saferetry.jdbc.internal.DatabaseTime;
import dev.saferetry.jdbc.internal.Deadline;
import dev.saferetry.jdbc.internal.Dialect;
import dev.saferetry.jdbc.internal.Jdbc;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Function;

/**
 * One key store's database: its connections, its table, its clock readings and whether it is
 * closed. The public key store and its outbox share one instance; the outbox reaches it through
 * {@link #of}.
 *
 * <p>Thread-safe.
 */
public final class KeyStoreDatabase {
  // The one way from the outbox's public package to the key store's machinery (as OkHttp's
  // Internal): set once, by the key store's class, before any key store exists.
  private static volatile Function<Object, KeyStoreDatabase> reader;

  private final Jdbc jdbc;
  private final IntentTable table;
  private final IntentWrites writes;
  private final String schema;
  private final String tableName;
  private final String name;
  private final int purgeBatch;
  private final DatabaseTime time;
  private final AtomicBoolean closed = new AtomicBoolean();
  private final List<Runnable> closeHooks = new CopyOnWriteArrayList<>();
  private final RowSeal seal;
  private final Duration outboxMaxAge;

  public KeyStoreDatabase(
      Jdbc jdbc,
      IntentTable table,
      IntentWrites writes,
      String schema,
      String tableName,
      String name,
      int purgeBatch,
      RowSeal seal,
      Duration outboxMaxAge) {
    this.seal = seal;
    this.outboxMaxAge = outboxMaxAge;
    this.jdbc = jdbc;
    this.table = table;
    this.writes = writes;
    this.schema = schema;
    this.tableName = tableName;
    this.name = name;
    this.purgeBatch = purgeBatch;
    this.time = new DatabaseTime(jdbc.dialect());
  }

  /**
   * Lets {@link #of} read the database of a {@code type}; called once, by the key store's class.
   *
   * @throws IllegalStateException if called again
   */
  public static synchronized <S> void expose(Class<S> type, Function<S, KeyStoreDatabase> read) {
    if (reader != null) {
      throw new IllegalStateException("the key store's database is exposed already");
    }
    reader = store -> read.apply(type.cast(store));
  }

  /** {@return the database of {@code store}, a key store} */
  public static KeyStoreDatabase of(Object store) {
    return reader.apply(Objects.requireNonNull(store, "store"));
  }

  /** {@return the connections, after checking the store is not closed} */
  public Jdbc open() {
    if (closed.get()) {
      throw new KeyStoreException("the key store " + name + " is closed");
    }
    return jdbc;
  }

  /** Marks the store closed, once; later calls fail, and the hooks run. */
  public void close() {
    if (closed.compareAndSet(false, true)) {
      closeHooks.forEach(Runnable::run);
      closeHooks.clear();
    }
  }

  /** Runs {@code hook} when the store is closed, or now if it is. */
  public void onClose(Runnable hook) {
    closeHooks.add(hook);
    if (closed.get() && closeHooks.remove(hook)) {
      hook.run();
    }
  }

  /** Whether {@link #close()} was called. */
  public boolean isClosed() {
    return closed.get();
  }

  /** The keys outbox rows are sealed and verified with. */
  public RowSeal seal() {
    return seal;
  }

  /** How old an outbox intent may get before it is held EXPIRED instead of sent: the table's. */
  public Duration outboxMaxAge() {
    return outboxMaxAge;
  }

  /** Whether outbox rows can be sealed: a current seal key is configured. */
  public boolean canSealRows() {
    return seal.canSeal();
  }

  public Dialect dialect() {
    return jdbc.dialect();
  }

  /** The key store's operations on its table. */
  public IntentTable intents() {
    return table;
  }

  public IntentWrites writes() {
    return writes;
  }

  /** The schema as configured, or null. */
  public String schema() {
    return schema;
  }

  /** The table's name as configured, unqualified. */
  public String table() {
    return tableName;
  }

  /** The table's name, qualified as configured. */
  public String tableName() {
    return name;
  }

  /** The most rows one purge transaction deletes. */
  public int purgeBatchSize() {
    return purgeBatch;
  }

  /** The clock readings, shared by the store and its outbox. */
  public DatabaseTime time() {
    return time;
  }

  /**
   * The database's time now, never later than its clock: a reading less than a second old, else a
   * new one on a connection of the store's own, its wait bounded by {@code deadline}.
   */
  public Instant timeNoLaterThanDatabase(Deadline deadline) {
    Instant db = time.notBefore();
    return db != null
        ? db
        : open().autoCommit("read the database clock", deadline, c -> time.read(c, true));
  }

  /**
   * The database's time now, never later than its clock: a reading less than a second old, else a
   * new one on the caller's {@code transaction} (on H2: the transaction's start).
   */
  public Instant timeNoLaterThanDatabase(Connection transaction) throws SQLException {
    Instant db = time.notBefore();
    return db != null ? db : time.read(transaction, false);
  }

  /**
   * Reads the database's clock on {@code c}: inside a transaction, the time that transaction judges
   * by (PostgreSQL: the wall clock at the read; MariaDB: the statement's time; H2: the
   * transaction's start). Every lease decision of the outbox is made at this time.
   */
  public Instant databaseClock(Connection c) throws SQLException {
    return time.read(c, false);
  }

  public <T> T inTransaction(Connection transaction, String operation, Jdbc.Work<T> work) {
    return inTransaction(transaction, operation, Deadline.NONE, work);
  }

  /** Runs {@code work} in the caller's transaction, every wait bounded by {@code deadline}. */
  public <T> T inTransaction(
      Connection transaction, String operation, Deadline deadline, Jdbc.Work<T> work) {
    Objects.requireNonNull(transaction, "transaction");
    open();
    try {
      if (transaction.getAutoCommit()) {
        throw new IllegalArgumentException(
            "the connection is in auto-commit mode: there is no transaction to join");
      }
      return deadline.run(transaction, jdbc.dialect(), work::run);
    } catch (SQLException e) {
      throw jdbc.failed(operation, e);
    }
  }

  /** The row, checked again once its times are the database's (they may now be out of range). */
  public static IntentRow checked(IntentRow row) {
    IntentWrites.check(row);
    return row;
  }
}
