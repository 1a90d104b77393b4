package dev.saferetry.jdbc.inbox;

import dev.saferetry.jdbc.TestDatabase.Db;

/** The inbox contract on H2. */
class H2InboxTest extends InboxContract {
  @Override
  Db db() {
    return Db.H2;
  }
}
