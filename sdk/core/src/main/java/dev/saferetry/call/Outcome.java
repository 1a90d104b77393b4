package dev.saferetry.call;

/**
 * The three ways a call can end. There is no fourth: the SDK never guesses.
 *
 * <p>Immutable and thread-safe.
 */
public enum Outcome {
  /** The server answered 2xx: the effect exists exactly once. */
  SUCCEEDED,
  /**
   * A definitive answer that the request was rejected, or proof that it never reached the server.
   * Retrying the same request will not change it.
   */
  FAILED,
  /**
   * Retries, the deadline or the circuit breaker stopped the call after an ambiguous failure: the
   * effect may or may not exist. Retry the same intent later — it reuses the same key, so the
   * server either performs it once or replays the first outcome. Never treat this as a failure.
   */
  UNKNOWN
}
