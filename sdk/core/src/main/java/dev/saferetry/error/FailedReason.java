package dev.saferetry.error;

import dev.saferetry.Outcome;

/**
 * Why a call ended {@link Outcome#FAILED}: in every case the SDK holds proof that the call had no
 * effect, either a definitive answer from the server or the certainty that nothing of the intent
 * reached it.
 *
 * <p>Immutable and thread-safe.
 */
public enum FailedReason implements Reason {
  /**
   * The server answered with a definitive error: a status below 500 that the retry classifier does
   * not retry (400, 401, 402, 403, 404, a 3xx, ...), also when the provider replays it as the
   * stored answer of the key. Thrown as {@link ApiException}. Fix the request; retrying it
   * unchanged will not help. A server error (5xx) never ends here, and neither does an answer the
   * classifier retries (408, 409, 429, ...) whatever a should-retry header says: such answers do
   * not prove that nothing happened, and end {@link Outcome#UNKNOWN}.
   */
  REJECTED,
  /**
   * The server says the key was already used with another request (422, or Stripe's 400 {@code
   * idempotency_error}). Thrown as {@link IdempotencyKeyReusedException}. A bug in the caller: one
   * key was reused for two intents, or the payload changed between retries.
   */
  KEY_REUSED,
  /**
   * No attempt got as far as handing the request to a connection (refused, unreachable, unknown
   * host, TLS handshake, connect timeout), whatever then stopped the retries. Nothing was sent:
   * calling again with the same intent is safe.
   */
  NOT_SENT,
  /**
   * The client's circuit breaker is open and nothing of this intent was ever sent. Call again later
   * with the same intent.
   */
  CIRCUIT_OPEN,
  /**
   * The intent is recorded with another request (method, path, query or body). Nothing was sent. A
   * bug in the caller: one intent id must always describe the same request.
   */
  INTENT_MISMATCH,
  /**
   * The caller supplied an idempotency key, but the intent is recorded with another one. Nothing
   * was sent. A bug in the caller: an intent keeps the key it was first recorded with.
   */
  INTENT_KEY_CONFLICT,
  /** The call was cancelled before anything of it was sent. */
  CANCELLED;

  @Override
  public Outcome outcome() {
    return Outcome.FAILED;
  }
}
