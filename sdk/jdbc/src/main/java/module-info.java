/**
 * SafeRetry's JDBC side: a key store a fleet shares ({@code dev.saferetry.jdbc.keystore}), the
 * transactional outbox with its relay and operator API ({@code dev.saferetry.jdbc.outbox}), and the
 * inbox that makes redelivery harmless ({@code dev.saferetry.jdbc.inbox}). Only those packages are
 * exported; {@code dev.saferetry.jdbc.internal} and below are their machinery. It sends through the
 * core's public API alone.
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

  exports dev.saferetry.jdbc.keystore;
  exports dev.saferetry.jdbc.outbox;
  exports dev.saferetry.jdbc.inbox;
}
