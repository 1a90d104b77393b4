package dev.saferetry.jdbc;

/** The inbox contract on H2. */
class H2InboxTest extends InboxContract {
  @Override
  InboxDatabase open() {
    return InboxDatabase.h2();
  }
}
