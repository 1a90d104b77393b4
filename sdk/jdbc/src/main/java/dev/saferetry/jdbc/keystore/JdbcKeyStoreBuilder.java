package dev.saferetry.jdbc.keystore;

import dev.saferetry.idempotency.KeyStoreException;
import dev.saferetry.jdbc.internal.Jdbc;
import dev.saferetry.jdbc.internal.Purge;
import dev.saferetry.jdbc.internal.SchemaGate;
import dev.saferetry.jdbc.internal.SqlNames;
import dev.saferetry.jdbc.internal.keystore.IntentTable;
import dev.saferetry.jdbc.internal.keystore.IntentWrites;
import dev.saferetry.jdbc.internal.keystore.KeyStoreDatabase;
import dev.saferetry.jdbc.internal.keystore.RowSeal;
import java.time.Duration;
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
  /** The default of {@link #outboxMaxAge}: one day. */
  public static final Duration DEFAULT_OUTBOX_MAX_AGE = Duration.ofDays(1);

  /** The shortest {@link #outboxMaxAge}: one hour. */
  public static final Duration MIN_OUTBOX_MAX_AGE = Duration.ofHours(1);

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
  private Duration outboxMaxAge = DEFAULT_OUTBOX_MAX_AGE;
  private RowSeal seal = RowSeal.none();

  JdbcKeyStoreBuilder() {}

  /** A builder holding the same settings. */
  JdbcKeyStoreBuilder copy() {
    JdbcKeyStoreBuilder b = new JdbcKeyStoreBuilder();
    b.dataSource = dataSource;
    b.table = table;
    b.schema = schema;
    b.createSchema = createSchema;
    b.purgeBatchSize = purgeBatchSize;
    b.seal = seal;
    b.outboxMaxAge = outboxMaxAge;
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
   * How old an outbox intent may get, by the database's clock, before it is held as {@link
   * dev.saferetry.jdbc.outbox.HoldReason#EXPIRED EXPIRED} instead of sent: the table's rule, which
   * every relay and {@link dev.saferetry.jdbc.outbox.OutboxAdmin} of this store follows (a relay
   * cannot park a table's backlog with an age of its own). An intent is never sent past its key's
   * retention either, whatever its age. Give every store of one table the same age. Default {@link
   * #DEFAULT_OUTBOX_MAX_AGE} (shorter than any provider's key retention).
   *
   * @param maxAge at least {@link #MIN_OUTBOX_MAX_AGE}, at most 100 years
   * @return this builder
   * @throws IllegalArgumentException if shorter or longer
   */
  public JdbcKeyStoreBuilder outboxMaxAge(Duration maxAge) {
    Objects.requireNonNull(maxAge, "maxAge");
    if (maxAge.compareTo(MIN_OUTBOX_MAX_AGE) < 0 || maxAge.compareTo(Duration.ofDays(36_500)) > 0) {
      throw new IllegalArgumentException(
          "outboxMaxAge must be "
              + MIN_OUTBOX_MAX_AGE
              + " to 100 years (an age shorter than an outage would park the backlog): "
              + maxAge);
    }
    this.outboxMaxAge = maxAge;
    return this;
  }

  /**
   * The key that seals outbox rows: every row enqueued carries an HMAC-SHA256 under it (with {@code
   * keyId}) over its intent, times, target, method, headers and body, and a relay sends a row only
   * when its seal verifies. Keep the secret out of the database (configuration, a secret manager):
   * whoever can write the table but not read the key cannot make a row a relay sends. Enqueuers,
   * relays and operators of one table need the same keys. Default: none, and then {@link
   * dev.saferetry.jdbc.outbox.JdbcOutbox#enqueue} and a relay's build are refused; a store used
   * only as a key store needs none.
   *
   * <p>To rotate: give the new key here and the old one to {@link #outboxRetiredSealKey} on every
   * instance; rows sealed with the old key are still sent, new ones are sealed with the new key;
   * once no row carries the old key id, drop it. A row whose key id is not configured is held,
   * never sent.
   *
   * @param keyId the key's id, stored with each row: 1 to 16 letters, digits, {@code _} or {@code
   *     -}
   * @param secret the key, at least 32 bytes (copied)
   * @return this builder
   * @throws IllegalArgumentException if the id or secret is not acceptable, or another current key
   *     was given; the message never shows the secret
   */
  public JdbcKeyStoreBuilder outboxSealKey(String keyId, byte[] secret) {
    this.seal = seal.withKey(keyId, secret, true);
    return this;
  }

  /**
   * A former {@link #outboxSealKey}: rows sealed with it still verify, none is sealed with it. Any
   * number may be given.
   *
   * @param keyId the key's id
   * @param secret the key, at least 32 bytes (copied)
   * @return this builder
   * @throws IllegalArgumentException as {@link #outboxSealKey}
   */
  public JdbcKeyStoreBuilder outboxRetiredSealKey(String keyId, byte[] secret) {
    this.seal = seal.withKey(keyId, secret, false);
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
            jdbc,
            intents,
            writes,
            schema,
            table,
            SqlNames.qualify(schema, table),
            purgeBatchSize,
            seal,
            outboxMaxAge),
        copy());
  }
}
