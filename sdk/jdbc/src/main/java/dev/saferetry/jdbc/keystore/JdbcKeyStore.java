package dev.saferetry.jdbc.keystore;

import dev.saferetry.idempotency.BeginResult;
import dev.saferetry.idempotency.IntentRecord;
import dev.saferetry.idempotency.IntentScope;
import dev.saferetry.idempotency.KeyStore;
import dev.saferetry.idempotency.KeyStoreException;
import dev.saferetry.jdbc.internal.DatabaseTime;
import dev.saferetry.jdbc.internal.Deadline;
import dev.saferetry.jdbc.internal.Jdbc;
import dev.saferetry.jdbc.internal.keystore.IntentRow;
import dev.saferetry.jdbc.internal.keystore.IntentTable;
import dev.saferetry.jdbc.internal.keystore.IntentWrites;
import dev.saferetry.jdbc.internal.keystore.KeyStoreDatabase;
import dev.saferetry.jdbc.internal.outbox.OutboxOwnership;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * A {@link KeyStore} in a relational database — PostgreSQL (the fleet default), H2 (embedded) or
 * MariaDB — shared by every instance of a service: an intent one instance left pending is listed by
 * {@code pendingIntents()} on any other, and re-driving it there reuses its key.
 *
 * <pre>{@code
 * DataSource pool = ...; // your pool (HikariCP, the app server's, ...); the driver is yours too
 * JdbcKeyStore store = JdbcKeyStore.builder().dataSource(pool).schema("payments").createSchema(true).build();
 * SafeRetryClient client = SafeRetryClient.builder().keyStore(store)...build();
 * }</pre>
 *
 * <p><b>Schema.</b> One table (default {@value JdbcKeyStoreBuilder#DEFAULT_TABLE}) with one row per
 * intent, keyed by tenant, operation and intent id; instants are stored as BIGINT nanoseconds, so
 * they round-trip exactly. Its version is recorded in {@code saferetry_schema} beside it. The
 * migration that creates it is in the jar as {@code
 * db/saferetry-migration/<database>/V1__saferetry_keystore.sql}, for Flyway or Liquibase (with
 * {@code db/saferetry-migration/changelog.xml}). {@link JdbcKeyStoreBuilder#build} checks the
 * table, failing with a schema refusal ({@link KeyStoreException#table()} set) that names the file
 * to apply when it is missing, older or newer than this code; it runs the same file itself when
 * told {@link JdbcKeyStoreBuilder#createSchema createSchema(true)}.
 *
 * <p><b>Guarantees.</b> {@link #begin} records a new intent with one statement, committed (and so
 * durable, as far as the database is configured to be) before it returns; of any number of
 * concurrent callers on any number of instances, exactly one records its candidate and all get the
 * same record. {@link #complete} is conditional on the recorded key; on PostgreSQL it does not wait
 * for its commit to be flushed (the SPI allows a lost completion: it only causes a replay with the
 * same key). {@link #purgeExpired} deletes in bounded batches that skip rows other instances are
 * purging, so every instance may run it at once. Text a column would not give back exactly (an
 * unpaired surrogate, a NUL, a tenant over 128 or an operation over 255 characters) is refused
 * before anything is written. A client's call bounds the store's waits by its deadline ({@link
 * #begin(IntentRecord, Duration)}, {@link #complete(IntentRecord, Duration)}): a row another
 * transaction holds ends the call at its deadline, not after the database's own lock timeout.
 *
 * <p><b>Joining a transaction.</b> {@link #begin(Connection, IntentRecord)} records an intent on
 * the caller's own connection, inside the caller's transaction, next to their business rows: it
 * exists only if that transaction commits. {@link dev.saferetry.jdbc.outbox.JdbcOutbox#of
 * JdbcOutbox.of(store)} records intents with their request for a relay to send.
 *
 * <p>The store borrows a connection from the data source for each operation and returns it at once;
 * {@link #close} does not close the data source.
 *
 * <p>This class is thread-safe.
 */
public final class JdbcKeyStore implements KeyStore {
  static {
    KeyStoreDatabase.expose(JdbcKeyStore.class, s -> s.db);
  }

  private final KeyStoreDatabase db;
  private final Jdbc jdbc;
  private final IntentTable table;
  private final IntentWrites writes;
  private final int purgeBatch;
  private final DatabaseTime time;
  private final JdbcKeyStoreBuilder settings;

  JdbcKeyStore(KeyStoreDatabase db, JdbcKeyStoreBuilder settings) {
    this.settings = settings;
    this.db = db;
    this.jdbc = db.open();
    this.table = db.intents();
    this.writes = db.writes();
    this.purgeBatch = db.purgeBatchSize();
    this.time = db.time();
  }

  /** {@return a builder; a {@link JdbcKeyStoreBuilder#dataSource} is required} */
  public static JdbcKeyStoreBuilder builder() {
    return new JdbcKeyStoreBuilder();
  }

  /**
   * {@return a builder holding this store's settings (its data source too), to build another store
   * from, for example on another table}
   */
  public JdbcKeyStoreBuilder newBuilder() {
    return settings.copy();
  }

  /**
   * Records the candidate unless a live record exists, as the SPI says, at the database's clock:
   * the record is created at the database's time (never the caller's), expires the candidate's
   * retention ({@code expiresAt - createdAt}) after it, and an existing completed record is
   * replaced only once it expired by the database's clock. A client whose clock runs ahead
   * therefore cannot replace a record the database still calls fresh, and one whose clock runs
   * behind records nothing that expires early. The record returned is the one recorded, with those
   * times.
   *
   * <p>An existing intent the outbox owns is refused with an {@link
   * dev.saferetry.idempotency.IntentRefusedException}: one an operator abandoned, one parked for a
   * person, and one queued with an ordering key (only the relays send it, in its key's order). A
   * queued intent without an ordering key is returned, to be sent with its key.
   */
  @Override
  public BeginResult begin(IntentRecord candidate) {
    return begin(candidate, Deadline.NONE);
  }

  private BeginResult begin(IntentRecord candidate, Deadline deadline) {
    IntentRow row = IntentRow.direct(candidate);
    open();
    IntentWrites.check(row);
    BeginResult result = writes.begin(row.at(timeNoLaterThanDatabase(deadline)), deadline);
    if (!result.created()) {
      jdbc.autoCommit(
          "begin",
          deadline,
          c -> {
            OutboxOwnership.checkSend(c, table, result.record());
            return null;
          });
    }
    return result;
  }

  /**
   * Records the candidate like {@link #begin(IntentRecord)}, giving up when a wait — for a row
   * another transaction holds, or for a slow server — runs past {@code maxWait}, rounded up to a
   * whole second (JDBC's query timeout unit) and at least one: PostgreSQL and MariaDB get a query
   * timeout on every statement, H2 a lower {@code LOCK_TIMEOUT} for the operation. Whether the
   * candidate was recorded is then unknown (a record left pending is listed by {@link #pending} and
   * re-driven with its key); nothing was sent. Not bounded: borrowing a connection from the data
   * source (configure your pool's own timeout). H2 applies its lock timeout to each lock a
   * statement waits for, so a begin there may wait about twice as long.
   *
   * @throws IllegalArgumentException if {@code maxWait} is negative
   * @throws KeyStoreException if the database failed or a wait was cut
   */
  @Override
  public BeginResult begin(IntentRecord candidate, Duration maxWait) {
    return begin(candidate, Deadline.after(maxWait));
  }

  /**
   * Records the candidate like {@link #begin(IntentRecord)}, but on the caller's connection and
   * inside the caller's transaction, which this method neither commits nor rolls back. The intent
   * exists for everyone else once that transaction commits, and never if it rolls back. A
   * concurrent transaction beginning the same intent waits for this one to end.
   *
   * @param candidate the candidate
   * @param transaction a connection to this store's database with auto-commit off
   * @return the candidate as recorded (at the database's time) with {@code created} true, or the
   *     existing record
   * @throws IllegalArgumentException if the connection is in auto-commit mode
   * @throws dev.saferetry.idempotency.IntentRefusedException if the intent exists and the outbox
   *     owns it: abandoned by an operator, parked, or queued with an ordering key
   * @throws KeyStoreException if the database refused the statement; the caller's transaction
   *     should then be rolled back
   */
  public BeginResult begin(Connection transaction, IntentRecord candidate) {
    IntentRow row = IntentRow.direct(candidate);
    IntentWrites.check(row);
    return inTransaction(
        transaction,
        "begin",
        c -> {
          BeginResult result = table.begin(c, checked(row.at(timeNoLaterThanDatabase(c))));
          if (!result.created()) {
            OutboxOwnership.checkSend(c, table, result.record());
          }
          return result;
        });
  }

  @Override
  public void complete(IntentRecord completed) {
    complete(completed, Deadline.NONE);
  }

  /**
   * Records the outcome like {@link #complete(IntentRecord)}, giving up when a wait runs past
   * {@code maxWait}, bounded as {@link #begin(IntentRecord, Duration)} is; the intent then stays
   * pending, which a re-drive replays with the same key.
   *
   * @throws IllegalArgumentException if {@code maxWait} is negative
   * @throws KeyStoreException if the database failed or a wait was cut
   */
  @Override
  public void complete(IntentRecord completed, Duration maxWait) {
    complete(completed, Deadline.after(maxWait));
  }

  private void complete(IntentRecord completed, Deadline deadline) {
    Objects.requireNonNull(completed, "completed");
    open();
    try {
      writes.complete(completed, deadline);
    } catch (IllegalArgumentException e) {
      throw new KeyStoreException("cannot record the outcome: " + e.getMessage(), e);
    }
  }

  @Override
  public Optional<IntentRecord> find(IntentScope scope, String intentId) {
    return open().autoCommit("find", c -> table.find(c, scope, intentId));
  }

  @Override
  public List<IntentRecord> pending() {
    return open().autoCommit("pending", table::pending);
  }

  /**
   * Forgets an intent, as the SPI says — unless the outbox owns it: an intent queued for the relays
   * (one may be sending it), held (parked) for a person, or abandoned by an operator is refused
   * with an {@link dev.saferetry.idempotency.IntentRefusedException} and kept; resolve it through
   * {@link dev.saferetry.jdbc.outbox.OutboxAdmin}, which records who did what. An outbox intent
   * that ended is forgotten like any other.
   *
   * @throws dev.saferetry.idempotency.IntentRefusedException if the outbox owns the intent
   */
  @Override
  public boolean abandon(IntentScope scope, String intentId) {
    return open()
        .autoCommit(
            "abandon",
            c -> {
              if (table.abandon(c, scope, intentId)) {
                return true;
              }
              OutboxOwnership.checkForget(c, table, scope, intentId);
              return false;
            });
  }

  /**
   * Returns the database's clock, which every instance sharing the table reads alike, whatever
   * {@code clock} says: an instance whose clock runs behind, or was stepped back, cannot judge an
   * expired pending intent fresh and re-send its stale key, and one whose clock runs ahead cannot
   * judge a fresh one expired. One query; called when a pending intent is found, unless this store
   * read the database's clock less than a second ago (a relay's claim does, once per pass, and so
   * does every begin): then that reading plus the time elapsed since, by this process's monotonic
   * clock, measured from before the query was sent, so that it never runs behind the database's
   * clock (unless that clock is stepped forward within the second).
   *
   * @param clock the caller's clock reading; it does not move the result
   */
  @Override
  public Instant expiryTime(Instant clock) {
    Objects.requireNonNull(clock, "clock");
    Instant db = time.notAfter();
    return db != null ? db : open().autoCommit("read the database clock", c -> time.read(c, true));
  }

  /**
   * Deletes completed records expired by the database's clock, in transactions of at most {@link
   * JdbcKeyStoreBuilder#purgeBatchSize} rows each; rows another instance is purging are skipped,
   * not waited for. Pending intents, intents held for a person and intents an operator abandoned
   * are never purged. Then deletes the outbox's ordering keys ({@code {table}_order}) that no
   * intent left in the table uses, in batches of the same size (the operator's audit has a purge of
   * its own, with a longer retention: {@link
   * dev.saferetry.jdbc.outbox.JdbcOutbox#purgeAuditOlderThan}).
   *
   * <p>{@code now} can only make the purge more cautious: records are judged at the earlier of
   * {@code now} and the database's clock, so a host whose clock runs ahead (or a caller passing a
   * later time) never deletes a record the database's clock still keeps, while a host whose clock
   * runs behind deletes only what its clock too calls expired.
   *
   * @param now the caller's time; the database's clock decides when it is later
   */
  @Override
  public int purgeExpired(Instant now) {
    Objects.requireNonNull(now, "now");
    Instant db = timeNoLaterThanDatabase(Deadline.NONE);
    Instant bound = now.isBefore(db) ? now : db;
    int purged = open().inBatches("purge", purgeBatch, c -> table.purgeBatch(c, bound, purgeBatch));
    purgeOrderingKeys();
    return purged;
  }

  /**
   * Deletes the ordering keys ({@code {table}_order}) no intent uses any more, in transactions
   * looking at {@link JdbcKeyStoreBuilder#purgeBatchSize} keys each, in key order; keys an enqueue
   * holds are skipped.
   */
  private void purgeOrderingKeys() {
    String[] after = null;
    do {
      String[] from = after;
      after =
          open()
              .transaction("purge ordering keys", c -> table.purgeOrderBatch(c, from, purgeBatch));
    } while (after != null);
  }

  /**
   * Marks the store closed; later calls fail, and the gauges {@link
   * dev.saferetry.jdbc.outbox.SafeRetryMeters} registered for it are removed. The data source is
   * left open.
   */
  @Override
  public void close() {
    db.close();
  }

  @Override
  public String toString() {
    return "JdbcKeyStore[" + jdbc.dialect() + " " + db.tableName() + "]";
  }

  private <T> T inTransaction(Connection transaction, String operation, Jdbc.Work<T> work) {
    return db.inTransaction(transaction, operation, work);
  }

  private Instant timeNoLaterThanDatabase(Deadline deadline) {
    return db.timeNoLaterThanDatabase(deadline);
  }

  private Instant timeNoLaterThanDatabase(Connection transaction) throws SQLException {
    return db.timeNoLaterThanDatabase(transaction);
  }

  private static IntentRow checked(IntentRow row) {
    return KeyStoreDatabase.checked(row);
  }

  private Jdbc open() {
    return db.open();
  }
}
