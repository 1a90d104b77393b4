package dev.saferetry.jdbc.inbox;

import dev.saferetry.jdbc.internal.Jdbc;
import dev.saferetry.jdbc.internal.JdbcSecrets;
import dev.saferetry.jdbc.internal.Purge;
import dev.saferetry.jdbc.internal.SchemaGate;
import dev.saferetry.jdbc.internal.SqlNames;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.time.Clock;
import java.util.Objects;
import java.util.Set;
import javax.sql.DataSource;

/**
 * Builds an {@link Inbox}; {@link Inbox#builder()} makes one, {@link Inbox#newBuilder()} one
 * holding an inbox's settings.
 *
 * <p>Not thread-safe; the inboxes it builds are.
 */
public final class InboxBuilder {
  private static final SchemaGate GATE =
      new SchemaGate(
          InboxTables::file,
          InboxTables.DEFAULT_NAME,
          InboxTables.VERSION,
          InboxTables.MIN_READER,
          InboxException::new,
          InboxException::new);

  Jdbc.Source source;
  String schema;
  String name = InboxTables.DEFAULT_NAME;
  boolean createSchema;
  Clock clock = Clock.systemUTC();
  int purgeBatchSize = 1000;

  InboxBuilder() {}

  /** A builder holding the same settings. */
  InboxBuilder copy() {
    InboxBuilder b = new InboxBuilder();
    b.source = source;
    b.schema = schema;
    b.name = name;
    b.createSchema = createSchema;
    b.clock = clock;
    b.purgeBatchSize = purgeBatchSize;
    return b;
  }

  /**
   * Sets the data source transactions are opened on (use a pool). Required (or a URL).
   *
   * @param dataSource the data source
   * @return this builder
   */
  public InboxBuilder dataSource(DataSource dataSource) {
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
  public InboxBuilder jdbcUrl(String jdbcUrl) {
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
        SQLException wrapped = new SQLException("the JDBC driver failed to connect", "08001", 0, e);
        throw JdbcSecrets.scrub(wrapped, secrets);
      }
    };
  }

  /**
   * Sets the receipts table's name; the marks table is the same name with {@code _marks} appended,
   * and the tables' schema version is recorded under this name in {@code saferetry_schema} beside
   * them. A plain SQL name (a letter or underscore, then at most 47 letters, digits or underscores,
   * used unquoted), optionally qualified by a schema (on MariaDB: a database) written the same way:
   * {@code payments.saferetry_inbox}. Default {@code saferetry_inbox}, in the connection's current
   * schema.
   *
   * @param table the table
   * @return this builder
   * @throws IllegalArgumentException naming {@code table} if either part is not such a name
   */
  public InboxBuilder table(String table) {
    Objects.requireNonNull(table, "table");
    int dot = table.indexOf('.');
    String schema = dot < 0 ? null : SqlNames.check("table", table.substring(0, dot));
    this.name = SqlNames.check("table", table.substring(dot + 1));
    this.schema = schema;
    return this;
  }

  /**
   * Whether {@link #build()} creates the tables (and their version record) when they are missing,
   * or upgrades them when they are older, by running the migration Flyway or Liquibase would apply.
   * Instances starting at once are safe: creation runs under a database lock. Default false, for
   * production, where a migration tool or a DBA owns the schema: the tables are only checked. True
   * suits development and tests.
   *
   * @param createSchema whether to create missing tables
   * @return this builder
   */
  public InboxBuilder createSchema(boolean createSchema) {
    this.createSchema = createSchema;
    return this;
  }

  /**
   * Sets the clock for receipt and mark times and for retention. Default {@link Clock#systemUTC()}.
   * It can only make retention more cautious: a receipt is recorded at the later of this clock and
   * the database's, and purged by the earlier of the two.
   *
   * @param clock the clock
   * @return this builder
   */
  public InboxBuilder clock(Clock clock) {
    this.clock = Objects.requireNonNull(clock, "clock");
    return this;
  }

  /**
   * Sets the most receipts {@link Inbox#purgeReceiptsOlderThan} deletes in one transaction. Default
   * 1000.
   *
   * @param rows the rows
   * @return this builder
   * @throws IllegalArgumentException unless 1 to 100,000
   */
  public InboxBuilder purgeBatchSize(int rows) {
    this.purgeBatchSize = Purge.checkBatchSize(rows);
    return this;
  }

  /**
   * Connects once to recognise the database and create or check the tables, then builds the inbox.
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
            source, schema, name, createSchema, dialect -> new InboxTables(dialect, schema, name));
    return new Inbox(copy(), tables);
  }
}
