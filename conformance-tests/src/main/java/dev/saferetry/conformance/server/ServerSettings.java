package dev.saferetry.conformance.server;

import java.time.Clock;
import java.time.Duration;

/**
 * The immutable configuration of one {@link ReferenceServer}; see its builder for defaults.
 *
 * @param host bind address
 * @param port bind port, 0 for ephemeral
 * @param jdbcUrl H2 or PostgreSQL JDBC URL
 * @param keyHeader header carrying the key
 * @param keyBodyField top-level body field carrying the key instead of the header, or null
 * @param retention how long records count
 * @param lockTimeout age after which a pending record may be taken over
 * @param clock server clock
 * @param requireKey whether POSTs without a key are rejected
 * @param testHooks whether {@code /_test/...} endpoints are served
 * @param maxKeyLength the longest key accepted (255)
 * @param emptyKey what an empty key header means (fixtures change it; the reference rejects it)
 */
record ServerSettings(
    String host,
    int port,
    String jdbcUrl,
    String keyHeader,
    String keyBodyField,
    Duration retention,
    Duration lockTimeout,
    Clock clock,
    boolean requireKey,
    boolean testHooks,
    int maxKeyLength,
    EmptyKey emptyKey) {

  /** What an empty key header means. */
  enum EmptyKey {
    /** Rejected with 400, as a malformed key (the reference server). */
    REJECTED,
    /** Treated as no key at all. */
    NO_KEY,
    /** Taken for the key "" — one key shared by every such request (a broken fixture). */
    ONE_KEY
  }
}
