package dev.saferetry.jdbc.keystore;

import dev.saferetry.idempotency.KeyStore;
import dev.saferetry.jdbc.TestDatabase;
import dev.saferetry.jdbc.TestDatabase.Db;
import dev.saferetry.jdbc.outbox.RelayRows;
import dev.saferetry.testing.KeyStoreContract;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;

/**
 * The SPI contract on the JDBC store, run once per database by a subclass; a reopen builds a second
 * store on the same table without {@code createSchema}, so it also proves that the check on start
 * accepts the table it created.
 */
abstract class JdbcKeyStoreContract extends KeyStoreContract {
  private TestDatabase database;

  abstract Db db();

  @Override
  protected KeyStore open() {
    database = db().open();
    return database.builder().build();
  }

  @Override
  protected KeyStore reopen(KeyStore current) {
    current.close();
    return database.builder().createSchema(false).build();
  }

  @Override
  protected boolean ownClock() {
    return true; // the database's
  }

  @Override
  protected void age(Duration d) throws Exception {
    long ns = d.toNanos();
    java.util.List<dev.saferetry.idempotency.IntentRecord> sealed =
        RelayRows.validlySealed(database);
    database.execute(
        "UPDATE "
            + database.table(JdbcKeyStoreBuilder.DEFAULT_TABLE)
            + " SET created_at_ns = created_at_ns - "
            + ns
            + ", expires_at_ns = expires_at_ns - "
            + ns);
    RelayRows.resealMoved(database, sealed); // rows the SDK sealed stay sealed at their new times
  }

  @AfterEach
  void dropSchema() throws Exception {
    if (database != null) {
      database.close();
    }
  }
}
