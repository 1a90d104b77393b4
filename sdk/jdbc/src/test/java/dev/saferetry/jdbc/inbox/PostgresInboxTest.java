package dev.saferetry.jdbc.inbox;

import dev.saferetry.jdbc.TestDatabase.Db;

/** The inbox contract on PostgreSQL. */
class PostgresInboxTest extends InboxContract {
  @Override
  Db db() {
    return Db.POSTGRESQL;
  }
}
