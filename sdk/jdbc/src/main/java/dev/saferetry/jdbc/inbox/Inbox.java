package dev.saferetry.jdbc.inbox;

import dev.saferetry.jdbc.internal.ColumnText;
import dev.saferetry.jdbc.internal.DatabaseTime;
import dev.saferetry.jdbc.internal.Jdbc;
import dev.saferetry.jdbc.internal.JdbcSecrets;
import dev.saferetry.jdbc.internal.Purge;
import dev.saferetry.jdbc.internal.SchemaGate;
import dev.saferetry.jdbc.internal.SqlNames;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.util.Objects;
import java.util.Set;
import javax.sql.DataSource;

/**
 * Makes every redelivery of a message harmless: a processed-messages table keyed by subscriber and
 * message id, written in the same transaction as the message's effects and before them.
 *
 * <p>{@link #receive(String, String, InboxHandler)} opens a transaction, records the receipt — one
 * insert that the primary key arbitrates, so of any number of concurrent deliveries exactly one
 * proceeds — runs the handler, and commits both. A message already recorded is reported as {@link
 * InboxResult#DUPLICATE} without running the handler. A concurrent delivery waits for the first to
 * end, the same way on every database: if the first commits it reports {@code DUPLICATE}, if the
 * first rolls back it runs the handler itself; if the first is still running when the database's
 * lock wait runs out (H2 {@code LOCK_TIMEOUT}, default 2 s; MariaDB {@code
 * innodb_lock_wait_timeout}, default 50 s; PostgreSQL {@code lock_timeout}, default none: set one)
 * it throws {@link InboxException} of kind {@link InboxException.Kind#BUSY BUSY}. A handler that
 * throws rolls the receipt back with its work, so the redelivery runs it again. A crash after the
 * commit and before the acknowledgement leaves a receipt, and the redelivery is a duplicate.
 * Acknowledge the message whenever {@code receive} returns; do not acknowledge it when it throws.
 *
 * <p>The receipt and the handler's work commit together or not at all, whatever the handler does:
 * the connection it gets refuses commit, rollback, auto-commit, close and the like (see {@link
 * InboxContext#connection()}), and the outcome is recorded only if the transaction is still the one
 * that recorded the receipt. A {@code receive} inside a handler is refused, except on the handler's
 * own connection ({@link #receive(Connection, String, String, InboxHandler)} with {@code
 * tx.connection()}), where the second receipt commits with the first.
 *
 * <pre>{@code
 * Inbox inbox = Inbox.builder().dataSource(dataSource).build();
 * InboxResult outcome = inbox.receive("billing", event.id(), tx -> {
 *   try (PreparedStatement s = tx.connection().prepareStatement(
 *       "UPDATE orders SET status = 'paid' WHERE id = ?")) {
 *     s.setString(1, orderId);
 *     s.executeUpdate();
 *   }
 * });
 * // APPLIED, DUPLICATE or STALE: acknowledge
 * }</pre>
 *
 * <p>Supported databases: PostgreSQL 12, H2 2.2 and MariaDB 10.6 or newer (not MySQL), with the
 * migration {@code db/saferetry-migration/<database>/V2__saferetry_inbox.sql} in the jar, for
 * Flyway or Liquibase. The tables' version is recorded in {@code saferetry_schema} beside them, as
 * the key store's is; {@link Builder#build} checks them, failing with {@link InboxException} of
 * kind {@link InboxException.Kind#SCHEMA SCHEMA} that names the file to apply, and runs the same
 * file itself when told {@link Builder#createSchema createSchema(true)}. Only {@code java.sql} is
 * used; the driver is yours.
 *
 * <p>Receipts are kept until {@link #purgeReceiptsOlderThan} deletes them: run it from every
 * instance (for example hourly) with an age longer than the senders may redeliver a message.
 *
 * <p>Instances are immutable and thread-safe; share one per set of tables.
 */
public final class Inbox {
  static final int MAX_SUBSCRIBER_LENGTH = 200;

  private static final SchemaGate GATE =
      new SchemaGate(
          InboxTables::file,
          InboxTables.DEFAULT_NAME,
          InboxTables.VERSION,
          InboxTables.MIN_READER,
          InboxException::new,
          InboxException::new);

  private final Jdbc jdbc;
  private final InboxTables tables;
  private final Clock clock;
  private final int purgeBatch;

  private Inbox(Builder b, InboxTables tables) {
    this.jdbc = new Jdbc(b.source, tables.dialect, InboxException::new);
    this.tables = tables;
    this.clock = b.clock;
    this.purgeBatch = b.purgeBatchSize;
  }

  /** {@return a builder; a {@link Builder#dataSource} or {@link Builder#jdbcUrl} is required} */
  public static Builder builder() {
    return new Builder();
  }

  /**
   * Receives a message in a transaction of its own.
   *
   * @param subscriber who consumes the message (1 to 200 characters): the same message id may be
   *     received once per subscriber
   * @param messageId the provider's event or delivery id, or the broker message id (1 to 255)
   * @param handler the work to do the first time
   * @return what happened; acknowledge the message in every case
   * @throws InboxException of kind {@link InboxException.Kind#BUSY BUSY} if another delivery of the
   *     message is still being handled, or another message holds a mark the handler needs, beyond
   *     the database's lock wait: do not acknowledge, ask for the message again later (nack with
   *     requeue, answer 503)
   * @throws InboxException of kind {@link InboxException.Kind#INCOMPLETE INCOMPLETE} if a handler
   *     of this message ended the inbox's transaction itself and part of its work was committed
   *     with the receipt: do not acknowledge, a person must look
   * @throws InboxException if the database fails or the handler throws a checked exception
   * @throws IllegalStateException if the handler made a call the inbox refuses (see {@link
   *     InboxContext#connection()}), even one it caught, or ended the transaction or removed the
   *     receipt in a way only seen afterwards: rolled back, nothing recorded, do not acknowledge;
   *     also if called inside a handler on the same thread (nothing done)
   * @throws RuntimeException what the handler threw, after the rollback
   */
  public InboxResult receive(String subscriber, String messageId, InboxHandler handler) {
    checkArguments(subscriber, messageId, handler);
    return new InboxDelivery(tables, jdbc, clock, subscriber, messageId, handler)
        .inOwnTransaction();
  }

  /**
   * Receives a message inside a transaction the caller already holds, so the receipt commits or
   * rolls back with the caller's own work. The caller commits; nothing is committed here. A
   * duplicate leaves the transaction untouched. When the handler throws, the receipt and the
   * handler's work are rolled back to a savepoint before the exception propagates, so committing
   * the rest of the transaction afterwards cannot mark the message as processed. After an {@link
   * InboxException} of kind {@link InboxException.Kind#BUSY BUSY} roll the transaction back: a
   * deadlock may already have ended it.
   *
   * @param connection the caller's connection, auto-commit off
   * @param subscriber who consumes the message (1 to 200 characters)
   * @param messageId the event, delivery or message id (1 to 255 characters)
   * @param handler the work to do the first time
   * @return what happened
   * @throws IllegalStateException if the connection is in auto-commit mode, if called inside the
   *     handler of the same message, or as for {@link #receive(String, String, InboxHandler)}: roll
   *     your transaction back
   * @throws InboxException of kind {@link InboxException.Kind#BUSY BUSY} if another transaction
   *     holds the message's receipt or a mark the handler needs: do not acknowledge, ask for the
   *     message again later
   * @throws InboxException of kind {@link InboxException.Kind#INCOMPLETE INCOMPLETE} if the handler
   *     (for example through this connection, which it can reach without the inbox's guard)
   *     committed part of its work with the receipt, or an earlier delivery did
   * @throws InboxException if the database fails or the handler throws a checked exception
   */
  public InboxResult receive(
      Connection connection, String subscriber, String messageId, InboxHandler handler) {
    Objects.requireNonNull(connection, "connection");
    checkArguments(subscriber, messageId, handler);
    return new InboxDelivery(tables, jdbc, clock, subscriber, messageId, handler)
        .inCallersTransaction(connection);
  }

  /**
   * Deletes the receipts recorded more than {@code age} ago, judged at the earlier of this inbox's
   * clock and the database's (receipts are recorded at the later of the two): a host whose clock
   * runs ahead, or one whose clock ran behind when it recorded, never deletes a receipt younger
   * than {@code age} by the database's clock. In transactions of at most {@link
   * Builder#purgeBatchSize} receipts; receipts another instance is purging are skipped, not waited
   * for, so every instance may run it at once. The high-water marks are never deleted: an event
   * older than what its resource already saw stays {@link InboxResult#STALE} however old its
   * receipt.
   *
   * <p>A message whose receipt was purged is no longer recognised: a delivery after that runs the
   * handler again. Keep receipts at least as long as any sender may deliver a message again, with a
   * margin: a provider's automatic retries (Stripe retries for up to three days), redeliveries
   * started by hand (GitHub redelivers deliveries of the past three days on request; Stripe's
   * events API lists the past 30 days of events for reprocessing) and messages replayed from a
   * broker's dead-letter queue.
   *
   * @param age how old a receipt must be to be deleted; positive
   * @return how many receipts were deleted
   * @throws IllegalArgumentException if {@code age} is zero or negative
   * @throws InboxException if the database fails; batches already committed stay deleted
   */
  public int purgeReceiptsOlderThan(Duration age) {
    Objects.requireNonNull(age, "age");
    if (age.isNegative() || age.isZero()) {
      throw new IllegalArgumentException("age must be positive");
    }
    long now = clock.millis();
    long db =
        jdbc.autoCommit(
            "read the database clock", c -> DatabaseTime.query(c, jdbc.dialect()).toEpochMilli());
    long before;
    try {
      before = Math.subtractExact(Math.min(now, db), age.toMillis());
    } catch (ArithmeticException e) {
      return 0; // older than anything a clock can have recorded
    }
    return jdbc.inBatches(
        "purge receipts of " + tables.receipts,
        purgeBatch,
        c -> tables.purgeBatch(c, before, purgeBatch));
  }

  private static void checkArguments(String subscriber, String messageId, InboxHandler handler) {
    ColumnText.checkId("subscriber", subscriber, MAX_SUBSCRIBER_LENGTH);
    ColumnText.checkId("messageId", messageId, InboxTables.MAX_ID_LENGTH);
    Objects.requireNonNull(handler, "handler");
  }

  @Override
  public String toString() {
    return "Inbox[" + tables.receipts + ", " + tables.marks + "]";
  }

  /** Builds an {@link Inbox}. Not thread-safe. */
  public static final class Builder {
    private Jdbc.Source source;
    private String schema;
    private String name = InboxTables.DEFAULT_NAME;
    private boolean createSchema;
    private Clock clock = Clock.systemUTC();
    private int purgeBatchSize = 1000;

    private Builder() {}

    /**
     * Sets the data source transactions are opened on (use a pool). Required (or a URL).
     *
     * @param dataSource the data source
     * @return this builder
     */
    public Builder dataSource(DataSource dataSource) {
      Objects.requireNonNull(dataSource, "dataSource");
      this.source = dataSource::getConnection;
      return this;
    }

    /**
     * Opens a new connection per message through {@link DriverManager}: for examples and tools, not
     * for throughput. Required (or a data source). The URL is never logged or shown, and its
     * credentials (user info, {@code password=} and similar parameters) never reach an exception's
     * message or cause, not even the driver's own "No suitable driver found for ..." message.
     *
     * @param jdbcUrl the JDBC URL
     * @return this builder
     */
    public Builder jdbcUrl(String jdbcUrl) {
      Objects.requireNonNull(jdbcUrl, "jdbcUrl");
      if (!jdbcUrl.startsWith("jdbc:")) {
        throw new IllegalArgumentException("jdbcUrl must start with jdbc:");
      }
      this.source = connector(jdbcUrl);
      return this;
    }

    /**
     * Connects through {@link DriverManager}; a failure's messages, the driver's own included, are
     * masked so that the URL's credentials never reach an exception.
     */
    private static Jdbc.Source connector(String jdbcUrl) {
      Set<String> secrets = JdbcSecrets.of(jdbcUrl);
      return () -> {
        try {
          return DriverManager.getConnection(jdbcUrl);
        } catch (SQLException e) {
          throw JdbcSecrets.scrub(e, secrets);
        } catch (RuntimeException e) {
          SQLException wrapped =
              new SQLException("the JDBC driver failed to connect", "08001", 0, e);
          throw JdbcSecrets.scrub(wrapped, secrets);
        }
      };
    }

    /**
     * Sets the receipts table's name; the marks table is the same name with {@code _marks}
     * appended, and the tables' schema version is recorded under this name in {@code
     * saferetry_schema} beside them. A plain SQL name (a letter or underscore, then at most 47
     * letters, digits or underscores, used unquoted), optionally qualified by a schema (on MariaDB:
     * a database) written the same way: {@code payments.saferetry_inbox}. Default {@code
     * saferetry_inbox}, in the connection's current schema.
     *
     * @param table the table
     * @return this builder
     * @throws IllegalArgumentException naming {@code table} if either part is not such a name
     */
    public Builder table(String table) {
      Objects.requireNonNull(table, "table");
      int dot = table.indexOf('.');
      String schema = dot < 0 ? null : SqlNames.check("table", table.substring(0, dot));
      this.name = SqlNames.check("table", table.substring(dot + 1));
      this.schema = schema;
      return this;
    }

    /**
     * Whether {@link #build()} creates the tables (and their version record) when they are missing,
     * or upgrades them when they are older, by running the migration Flyway or Liquibase would
     * apply. Instances starting at once are safe: creation runs under a database lock. Default
     * false, for production, where a migration tool or a DBA owns the schema: the tables are only
     * checked. True suits development and tests.
     *
     * @param createSchema whether to create missing tables
     * @return this builder
     */
    public Builder createSchema(boolean createSchema) {
      this.createSchema = createSchema;
      return this;
    }

    /**
     * Sets the clock for receipt and mark times and for retention. Default {@link
     * Clock#systemUTC()}. It can only make retention more cautious: a receipt is recorded at the
     * later of this clock and the database's, and purged by the earlier of the two.
     *
     * @param clock the clock
     * @return this builder
     */
    public Builder clock(Clock clock) {
      this.clock = Objects.requireNonNull(clock, "clock");
      return this;
    }

    /**
     * Sets the most receipts {@link Inbox#purgeReceiptsOlderThan} deletes in one transaction.
     * Default 1000.
     *
     * @param rows the rows
     * @return this builder
     * @throws IllegalArgumentException unless 1 to 100,000
     */
    public Builder purgeBatchSize(int rows) {
      this.purgeBatchSize = Purge.checkBatchSize(rows);
      return this;
    }

    /**
     * Connects once to recognise the database and create or check the tables, then builds the
     * inbox.
     *
     * @return the inbox
     * @throws NullPointerException if neither a data source nor a URL was set
     * @throws InboxException of kind {@link InboxException.Kind#SCHEMA SCHEMA} if the tables are
     *     missing (without {@link #createSchema}), older, newer than this code understands, or lack
     *     their columns
     * @throws InboxException if the database is unreachable or not supported
     */
    public Inbox build() {
      Objects.requireNonNull(source, "dataSource or jdbcUrl");
      String schema = this.schema;
      String name = this.name;
      InboxTables tables =
          GATE.open(
              source,
              schema,
              name,
              createSchema,
              dialect -> new InboxTables(dialect, schema, name));
      return new Inbox(this, tables);
    }
  }
}
