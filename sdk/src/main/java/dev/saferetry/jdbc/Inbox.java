package dev.saferetry.jdbc;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Savepoint;
import java.time.Clock;
import java.util.Objects;
import javax.sql.DataSource;

/**
 * Makes every redelivery of a message harmless: a processed-messages table keyed by subscriber and
 * message id, written in the same transaction as the message's effects and before them.
 *
 * <p>{@link #receive(String, String, InboxHandler)} opens a transaction, records the receipt — one
 * insert that the primary key arbitrates, so of any number of concurrent deliveries exactly one
 * proceeds — runs the handler, and commits both. A message already recorded is reported as {@link
 * InboxOutcome#DUPLICATE} without running the handler; a concurrent delivery waits for the first to
 * finish and then sees it. A handler that throws rolls the receipt back with its work, so the
 * redelivery runs it again. A crash after the commit and before the acknowledgement leaves a
 * receipt, and the redelivery is a duplicate. Acknowledge the message whenever {@code receive}
 * returns; do not acknowledge it when it throws.
 *
 * <pre>{@code
 * Inbox inbox = Inbox.builder().dataSource(dataSource).build();
 * InboxOutcome outcome = inbox.receive("billing", event.id(), tx -> {
 *   try (PreparedStatement s = tx.connection().prepareStatement(
 *       "UPDATE orders SET status = 'paid' WHERE id = ?")) {
 *     s.setString(1, orderId);
 *     s.executeUpdate();
 *   }
 * });
 * // APPLIED, DUPLICATE or STALE: acknowledge
 * }</pre>
 *
 * <p>Supported databases: PostgreSQL, H2 and MariaDB, with the versioned DDL in {@code
 * dev/saferetry/jdbc/schema/inbox-v1-<dialect>.sql} on the classpath. Only {@code java.sql} is
 * used; the driver is yours.
 *
 * <p>Instances are immutable and thread-safe; share one per set of tables.
 */
public final class Inbox {
  static final int MAX_ID_LENGTH = 255;
  static final int MAX_SUBSCRIBER_LENGTH = 200;

  private final ConnectionSource connections;
  private final InboxTables tables;
  private final Clock clock;

  private Inbox(Builder b, InboxTables tables) {
    this.connections = b.connections;
    this.tables = tables;
    this.clock = b.clock;
  }

  /** Returns a builder; a {@link Builder#dataSource} or {@link Builder#jdbcUrl} is required. */
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
   * @throws InboxException if the database fails or the handler throws a checked exception
   * @throws RuntimeException what the handler threw, after the rollback
   */
  public InboxOutcome receive(String subscriber, String messageId, InboxHandler handler) {
    checkArguments(subscriber, messageId, handler);
    try (Connection c = connections.open()) {
      boolean autoCommit = c.getAutoCommit();
      c.setAutoCommit(false);
      try {
        InboxOutcome outcome = process(c, subscriber, messageId, handler);
        if (outcome == InboxOutcome.DUPLICATE) {
          c.rollback();
        } else {
          c.commit();
        }
        return outcome;
      } catch (SQLException | RuntimeException | Error e) {
        rollbackQuietly(c, null, e);
        throw e;
      } finally {
        restoreAutoCommit(c, autoCommit);
      }
    } catch (SQLException e) {
      throw failure("could not receive message " + messageId + " for " + subscriber, e);
    }
  }

  /**
   * Receives a message inside a transaction the caller already holds, so the receipt commits or
   * rolls back with the caller's own work. The caller commits; nothing is committed here. A
   * duplicate leaves the transaction untouched. When the handler throws, the receipt and the
   * handler's work are rolled back to a savepoint before the exception propagates, so committing
   * the rest of the transaction afterwards cannot mark the message as processed.
   *
   * @param connection the caller's connection, auto-commit off
   * @param subscriber who consumes the message (1 to 200 characters)
   * @param messageId the event, delivery or message id (1 to 255 characters)
   * @param handler the work to do the first time
   * @return what happened
   * @throws IllegalStateException if the connection is in auto-commit mode
   * @throws InboxException if the database fails or the handler throws a checked exception
   */
  public InboxOutcome receive(
      Connection connection, String subscriber, String messageId, InboxHandler handler) {
    Objects.requireNonNull(connection, "connection");
    checkArguments(subscriber, messageId, handler);
    Savepoint savepoint = null;
    try {
      if (connection.getAutoCommit()) {
        throw new IllegalStateException(
            "connection must have auto-commit off: the receipt has to commit with your work");
      }
      savepoint = connection.setSavepoint();
      InboxOutcome outcome = process(connection, subscriber, messageId, handler);
      connection.releaseSavepoint(savepoint);
      return outcome;
    } catch (RuntimeException | Error e) {
      rollbackQuietly(connection, savepoint, e);
      throw e;
    } catch (SQLException e) {
      rollbackQuietly(connection, savepoint, e);
      throw failure("could not receive message " + messageId + " for " + subscriber, e);
    }
  }

  private InboxOutcome process(
      Connection c, String subscriber, String messageId, InboxHandler handler) throws SQLException {
    InboxDialect dialect = InboxDialect.of(c);
    InboxDialect.Receipt receipt =
        new InboxDialect.Receipt(
            subscriber, messageId, InboxOutcome.APPLIED.name(), clock.instant().toEpochMilli());
    if (!dialect.insertReceipt(c, tables, receipt)) {
      return InboxOutcome.DUPLICATE;
    }
    InboxContext context = new InboxContext(c, dialect, tables, subscriber, messageId, clock);
    try {
      handler.handle(context);
    } catch (RuntimeException | Error e) {
      throw e;
    } catch (Exception e) {
      throw new InboxException(
          "the handler failed for message " + messageId + " of " + subscriber + ": rolled back", e);
    }
    if (!context.stale()) {
      return InboxOutcome.APPLIED;
    }
    InboxDialect.update(
        c,
        "UPDATE " + tables.receipts() + " SET outcome = ? WHERE subscriber = ? AND message_id = ?",
        InboxOutcome.STALE.name(),
        subscriber,
        messageId);
    return InboxOutcome.STALE;
  }

  private static void restoreAutoCommit(Connection c, boolean autoCommit) {
    try {
      c.setAutoCommit(autoCommit);
    } catch (SQLException e) {
      // The connection is closed next; a pool discards or resets it.
    }
  }

  private static void rollbackQuietly(Connection c, Savepoint savepoint, Throwable failure) {
    try {
      if (savepoint != null) {
        c.rollback(savepoint);
      } else if (!c.getAutoCommit()) {
        c.rollback();
      }
    } catch (SQLException e) {
      failure.addSuppressed(e);
    }
  }

  private static void checkArguments(String subscriber, String messageId, InboxHandler handler) {
    checkId(subscriber, "subscriber", MAX_SUBSCRIBER_LENGTH);
    checkId(messageId, "messageId", MAX_ID_LENGTH);
    Objects.requireNonNull(handler, "handler");
  }

  /**
   * Ids are stored and compared exactly: 1..max characters, no control characters, no unpaired
   * surrogates (which cannot be stored as UTF-8, so two different ids could be stored as one).
   */
  static void checkId(String id, String name, int max) {
    Objects.requireNonNull(id, name);
    if (id.isEmpty() || id.length() > max) {
      throw new IllegalArgumentException(name + " must be 1.." + max + " characters");
    }
    for (int i = 0; i < id.length(); i++) {
      char c = id.charAt(i);
      if (Character.isISOControl(c)) {
        throw new IllegalArgumentException(name + " contains a control character");
      }
      if (Character.isHighSurrogate(c)
          && i + 1 < id.length()
          && Character.isLowSurrogate(id.charAt(i + 1))) {
        i++;
      } else if (Character.isSurrogate(c)) {
        throw new IllegalArgumentException(name + " contains an unpaired surrogate");
      }
    }
  }

  static InboxException failure(String what, SQLException e) {
    return new InboxException(what + " (SQLState " + e.getSQLState() + ")", e);
  }

  @Override
  public String toString() {
    return "Inbox[" + tables.receipts() + ", " + tables.marks() + "]";
  }

  /** Where connections come from: a {@link DataSource} or a JDBC URL. */
  @FunctionalInterface
  private interface ConnectionSource {
    Connection open() throws SQLException;
  }

  /** Builds an {@link Inbox}. Not thread-safe. */
  public static final class Builder {
    private ConnectionSource connections;
    private String table = "saferetry_inbox";
    private boolean createSchema;
    private Clock clock = Clock.systemUTC();

    private Builder() {}

    /** Sets the data source transactions are opened on (use a pool). Required (or a URL). */
    public Builder dataSource(DataSource dataSource) {
      Objects.requireNonNull(dataSource, "dataSource");
      this.connections = dataSource::getConnection;
      return this;
    }

    /**
     * Opens a new connection per message through {@link DriverManager}: for examples and tools, not
     * for throughput. Required (or a data source). The URL is never logged or shown.
     */
    public Builder jdbcUrl(String jdbcUrl) {
      Objects.requireNonNull(jdbcUrl, "jdbcUrl");
      if (!jdbcUrl.startsWith("jdbc:")) {
        throw new IllegalArgumentException("jdbcUrl must start with jdbc:");
      }
      this.connections = () -> DriverManager.getConnection(jdbcUrl);
      return this;
    }

    /**
     * Sets the receipts table's name; the marks table is the same name with {@code _marks}
     * appended. An unquoted identifier, optionally schema-qualified. Default {@code
     * saferetry_inbox}.
     */
    public Builder table(String table) {
      InboxTables.named(table);
      this.table = table;
      return this;
    }

    /**
     * Whether {@link #build()} creates missing tables from the bundled DDL (true) or only checks
     * that they exist in the expected version (false). Default false.
     */
    public Builder createSchema(boolean createSchema) {
      this.createSchema = createSchema;
      return this;
    }

    /** Sets the clock for receipt and mark times. Default {@link Clock#systemUTC()}. */
    public Builder clock(Clock clock) {
      this.clock = Objects.requireNonNull(clock, "clock");
      return this;
    }

    /**
     * Connects once to create or check the tables, then builds the inbox.
     *
     * @throws NullPointerException if neither a data source nor a URL was set
     * @throws InboxException if the database is unreachable or unsupported, or the tables are
     *     missing or older (and not to be created)
     */
    public Inbox build() {
      Objects.requireNonNull(connections, "dataSource or jdbcUrl");
      InboxTables tables = InboxTables.named(table);
      try (Connection c = connections.open()) {
        InboxDialect dialect = InboxDialect.of(c);
        if (createSchema) {
          tables.create(c, dialect);
        }
        tables.check(c, dialect);
      } catch (SQLException e) {
        throw failure("could not prepare inbox tables " + tables.receipts(), e);
      }
      return new Inbox(this, tables);
    }
  }
}
