package dev.saferetry.jdbc;

/** The inbox contract on Postgres. */
class PostgresInboxTest extends InboxContract {
  @Override
  InboxDatabase open() {
    return InboxDatabase.postgres();
  }
}
