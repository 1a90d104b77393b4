package dev.saferetry.resilience;

/**
 * The kinds of failure below HTTP that an attempt can end with.
 *
 * <p>What matters for idempotency is whether the request may have reached the server: a failure
 * before the request was handed to a connection proves it did not; any later failure leaves the
 * effect unknown, which is why such attempts are retried with the same key.
 *
 * <p>Immutable and thread-safe.
 */
public enum TransportFailure {
  /**
   * No connection carried the request: refused, unreachable, unknown host, a failed TLS handshake
   * or certificate check, or the call was cancelled before it connected. Nothing was sent.
   */
  CONNECT_FAILED(false),
  /** Establishing the connection timed out. Nothing was sent. */
  CONNECT_TIMEOUT(false),
  /**
   * No (complete) response arrived within the read timeout, or the request could not be written
   * within the write timeout. The request may have been applied.
   */
  READ_TIMEOUT(true),
  /**
   * The call's overall deadline passed while the attempt was in flight. It may have been applied.
   */
  CALL_TIMEOUT(true),
  /** The peer reset or closed the connection. The request may have been applied. */
  CONNECTION_RESET(true),
  /** The connection ended before a complete response. The request may have been applied. */
  UNEXPECTED_EOF(true),
  /**
   * Any other I/O failure after the request was handed to a connection (a protocol error, the call
   * cancelled while in flight). The request may have been applied; not retried by default.
   */
  OTHER(true);

  private final boolean mayHaveReachedServer;

  TransportFailure(boolean mayHaveReachedServer) {
    this.mayHaveReachedServer = mayHaveReachedServer;
  }

  /** {@return whether the server may have received — and applied — the request} */
  public boolean mayHaveReachedServer() {
    return mayHaveReachedServer;
  }
}
