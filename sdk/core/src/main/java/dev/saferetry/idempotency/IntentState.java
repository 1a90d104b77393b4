package dev.saferetry.idempotency;

/**
 * The lifecycle of an intent in a {@link KeyStore}.
 *
 * <p>An intent is {@link #PENDING} from the moment its key is recorded until a definitive answer
 * arrives. An ambiguous outcome (the request may or may not have taken effect) leaves it {@code
 * PENDING}, so that a later call — after a retry budget ran out, a breaker opened or the process
 * restarted — reuses the same key.
 *
 * <p>Immutable and thread-safe.
 */
public enum IntentState {
  /** Recorded before the first byte was sent; outcome not yet known. */
  PENDING,
  /** The server answered 2xx. */
  SUCCEEDED,
  /** The server answered definitively that the request was rejected (a non-retryable 4xx). */
  FAILED
}
