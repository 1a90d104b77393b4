package dev.saferetry.jdbc.keystore;

import dev.saferetry.jdbc.TestDatabase.Db;

/** The SPI contract on the JDBC store over MariaDB. */
class JdbcKeyStoreContractOnMariaDbTest extends JdbcKeyStoreContract {
  @Override
  Db db() {
    return Db.MARIADB;
  }
}
