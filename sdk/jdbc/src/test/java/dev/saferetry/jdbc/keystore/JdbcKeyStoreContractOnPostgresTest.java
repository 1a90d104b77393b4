package dev.saferetry.jdbc.keystore;

import dev.saferetry.jdbc.TestDatabase.Db;

/** The SPI contract on the JDBC store over PostgreSQL. */
class JdbcKeyStoreContractOnPostgresTest extends JdbcKeyStoreContract {
  @Override
  Db db() {
    return Db.POSTGRESQL;
  }
}
