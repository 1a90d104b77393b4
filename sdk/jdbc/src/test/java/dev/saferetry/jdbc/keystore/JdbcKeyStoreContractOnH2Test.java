package dev.saferetry.jdbc.keystore;

import dev.saferetry.jdbc.TestDatabase.Db;

/** The SPI contract on the JDBC store over H2. */
class JdbcKeyStoreContractOnH2Test extends JdbcKeyStoreContract {
  @Override
  Db db() {
    return Db.H2;
  }
}
