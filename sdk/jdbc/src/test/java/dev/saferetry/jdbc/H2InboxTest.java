package dev.saferetry.jdbc;

import dev.saferetry.jdbc.TestDatabase.Db;

/** The inbox contract on H2. */
class H2InboxTest extends InboxContract {
  @Override
  Db db() {
    return Db.H2;
  }
}
