package dev.saferetry.jdbc.outbox;

import dev.saferetry.SafeRetryClient;
import dev.saferetry.jdbc.keystore.JdbcKeyStore;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;

/**
 * The settings a relay's pass reads, fixed when the relay is built: what {@link OutboxRelayBuilder}
 * holds, immutable (its setters document each one).
 */
record RelayConfig(
    JdbcKeyStore store,
    Map<String, SafeRetryClient> clients,
    String owner,
    Duration leaseFor,
    int batchSize,
    int concurrency,
    Duration overdueEvery,
    Duration backoff,
    Duration maxBackoff,
    int maxClaims,
    Clock clock) {
  RelayConfig {
    clients = Map.copyOf(clients);
  }
}
