/**
 * SafeRetry's JDBC side: a key store a fleet shares, the transactional outbox and its relay, and
 * the inbox that makes redelivery harmless. Only {@code dev.saferetry.jdbc} is exported; {@code
 * dev.saferetry.jdbc.internal} is its machinery. It sends through the core's public API alone.
 */
// micrometer-core publishes an automatic module name only (no module-info of its own)
@SuppressWarnings("requires-automatic")
module dev.saferetry.jdbc {
  requires transitive dev.saferetry;
  requires transitive java.sql;
  requires org.slf4j;
  // Only SafeRetryMeters uses it; a service without Micrometer loads every other class. Not
  // transitive: a modular service that binds the meters requires Micrometer itself.
  requires static micrometer.core;

  exports dev.saferetry.jdbc;
}
