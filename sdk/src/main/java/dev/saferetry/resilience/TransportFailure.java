package dev.saferetry.resilience;

/**
 * The kinds of failure below HTTP that an attempt can end with.
 *
 * <p>What matters for idempotency is whether the request may have reached the server: a failure
 * before the connection was established proves it did not; any later failure leaves the effect
 * unknown, which is why such attempts are retried with the same key.
 *
 * <p>Immutable and thread-safe.
 */
public enum TransportFailure {
  /** The connection could not be established (refused, unreachable). Nothing was sent. */
  CONNECT_FAILED(false),
  /** Establishing the connection timed out. Nothing was sent. */
  CONNECT_TIMEOUT(false),
  /** No (complete) response arrived within the read timeout. The request may have been applied. */
  READ_TIMEOUT(true),
  /** Sending the request timed out. The request may have been applied. */
  WRITE_TIMEOUT(true),
  /** The attempt's overall time budget ran out. The request may have been applied. */
  CALL_TIMEOUT(true),
  /** The peer reset or closed the connection. The request may have been applied. */
  CONNECTION_RESET(true),
  /** The connection ended before a complete response. The request may have been applied. */
  UNEXPECTED_EOF(true),
  /** Any other I/O failure (TLS, unknown host, protocol error). Not retried by default. */
  OTHER(true);

  private final boolean mayHaveReachedServer;

  TransportFailure(boolean mayHaveReachedServer) {
    this.mayHaveReachedServer = mayHaveReachedServer;
  }

  /** Returns whether the server may have received — and applied — the request. */
  public boolean mayHaveReachedServer() {
    return mayHaveReachedServer;
  }
}
