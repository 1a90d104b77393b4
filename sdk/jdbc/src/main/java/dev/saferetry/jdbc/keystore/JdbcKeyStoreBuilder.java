package dev.saferetry.jdbc.keystore;

import dev.saferetry.idempotency.KeyStoreException;
import dev.saferetry.jdbc.internal.Jdbc;
import dev.saferetry.jdbc.internal.Purge;
import dev.saferetry.jdbc.internal.SchemaGate;
import dev.saferetry.jdbc.internal.SqlNames;
import dev.saferetry.jdbc.internal.keystore.IntentTable;
import dev.saferetry.jdbc.internal.keystore.IntentWrites;
import dev.saferetry.jdbc.internal.keystore.KeyStoreDatabase;
import java.util.Objects;
import javax.sql.DataSource;

/**
 * Options of a {@link JdbcKeyStore}. Names are checked when set (letters, digits and underscores
 * only, so nothing can be injected through them); the database is first contacted by {@link
 * #build}.
 *
 * <p>Builders are not thread-safe; the stores they build are.
 */
public final class JdbcKeyStoreBuilder {
  /** The table used when none is set. */
  public static final String DEFAULT_TABLE = IntentTable.DEFAULT_NAME;

  private static final SchemaGate GATE =
      new SchemaGate(
          IntentTable::file,
          IntentTable.DEFAULT_NAME,
          IntentTable.VERSION,
          IntentTable.MIN_READER,
          (table, found, required, message) ->
              new KeyStoreException(message, table, found, required),
          KeyStoreException::new);

  private DataSource dataSource;
  private String table = DEFAULT_TABLE;
  private String schema;
  private boolean createSchema;
  private int purgeBatchSize = 1000;

  JdbcKeyStoreBuilder() {}

  /** A builder holding the same settings. */
  JdbcKeyStoreBuilder copy() {
    JdbcKeyStoreBuilder b = new JdbcKeyStoreBuilder();
    b.dataSource = dataSource;
    b.table = table;
    b.schema = schema;
    b.createSchema = createSchema;
    b.purgeBatchSize = purgeBatchSize;
    return b;
  }

  /**
   * Sets the data source the store borrows a connection from for each operation (use a pool; the
   * driver is yours). Required; the store never closes it.
   *
   * @param dataSource the data source
   * @return this builder
   */
  public JdbcKeyStoreBuilder dataSource(DataSource dataSource) {
    this.dataSource = Objects.requireNonNull(dataSource, "dataSource");
    return this;
  }

  /**
   * The table's name. Default {@value #DEFAULT_TABLE}. Index names are derived from it.
   *
   * @param table the table
   * @return this builder
   * @throws IllegalArgumentException unless a letter or underscore followed by at most 47 letters,
   *     digits or underscores
   */
  public JdbcKeyStoreBuilder table(String table) {
    this.table = SqlNames.check("table", table);
    return this;
  }

  /**
   * The schema (on MariaDB: the database) holding the table, which must exist. Default: none, so
   * the connection's current schema is used.
   *
   * @param schema the schema
   * @return this builder
   * @throws IllegalArgumentException as {@link #table}
   */
  public JdbcKeyStoreBuilder schema(String schema) {
    this.schema = SqlNames.check("schema", schema);
    return this;
  }

  /**
   * Whether {@link #build} creates the table (and its version record) when it is missing, or
   * upgrades it when it is older, by running the migration Flyway or Liquibase would apply ({@code
   * db/saferetry-migration/<database>/V1__saferetry_keystore.sql}). Instances starting at once are
   * safe: creation runs under a database lock. Default {@code false}, for production, where a
   * migration tool or a DBA owns the schema: the table is only checked. True suits development and
   * tests.
   *
   * @param createSchema whether to create a missing table
   * @return this builder
   */
  public JdbcKeyStoreBuilder createSchema(boolean createSchema) {
    this.createSchema = createSchema;
    return this;
  }

  /**
   * The most rows {@link JdbcKeyStore#purgeExpired} deletes in one transaction. Default 1000.
   *
   * @param rows the rows
   * @return this builder
   * @throws IllegalArgumentException unless 1 to 100,000
   */
  public JdbcKeyStoreBuilder purgeBatchSize(int rows) {
    this.purgeBatchSize = Purge.checkBatchSize(rows);
    return this;
  }

  /**
   * Connects once to recognise the database, then creates or checks the table.
   *
   * @return the store
   * @throws KeyStoreException if the database cannot be reached or is not supported; a schema
   *     refusal ({@link KeyStoreException#table()} set) if the table is missing (without {@link
   *     #createSchema}), older, newer than this code understands, or lacks its columns
   */
  public JdbcKeyStore build() {
    Objects.requireNonNull(dataSource, "dataSource");
    IntentTable intents =
        GATE.open(
            dataSource::getConnection,
            schema,
            table,
            createSchema,
            dialect -> new IntentTable(dialect, schema, table));
    Jdbc jdbc = new Jdbc(dataSource::getConnection, intents.dialect(), KeyStoreException::new);
    IntentWrites writes = new IntentWrites(jdbc, intents, schema, table);
    return new JdbcKeyStore(
        new KeyStoreDatabase(
            jdbc, intents, writes, schema, table, SqlNames.qualify(schema, table), purgeBatchSize),
        copy());
  }
}
