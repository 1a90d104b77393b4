package dev.saferetry.jdbc;

/** The inbox contract on MariaDb. */
class MariaDbInboxTest extends InboxContract {
  @Override
  InboxDatabase open() {
    return InboxDatabase.mariadb();
  }
}
