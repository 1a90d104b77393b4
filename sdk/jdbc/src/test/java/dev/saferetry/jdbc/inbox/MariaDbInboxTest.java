package dev.saferetry.jdbc.inbox;

import dev.saferetry.jdbc.TestDatabase.Db;

/** The inbox contract on MariaDB. */
class MariaDbInboxTest extends InboxContract {
  @Override
  Db db() {
    return Db.MARIADB;
  }
}
