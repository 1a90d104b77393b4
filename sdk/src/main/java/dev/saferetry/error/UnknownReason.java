package dev.saferetry.error;

import dev.saferetry.Outcome;

/**
 * Why a call ended {@link Outcome#UNKNOWN}: the request may have reached the server, and nothing
 * proves whether it had an effect. Retry the same intent later: it reuses the same key, so the
 * server either performs it once or replays the first outcome.
 *
 * <p>Immutable and thread-safe.
 */
public enum UnknownReason implements Reason {
  /** The retry policy's maximum number of attempts was reached after ambiguous failures. */
  RETRIES_EXHAUSTED,
  /** The next retry would have started after the retry policy's overall deadline. */
  DEADLINE_EXCEEDED,
  /** The client's retry budget had no token left for another retry. */
  RETRY_BUDGET_EXHAUSTED,
  /**
   * The server asked to wait ({@code Retry-After}) longer than the retry policy's ceiling; see
   * {@link OutcomeUnknownException#retryAfter()}.
   */
  RETRY_AFTER_TOO_LONG,
  /** The client's circuit breaker opened after an attempt of this intent may have been sent. */
  CIRCUIT_OPEN,
  /**
   * The server still answered 409: a request with this key is in progress (another thread, process,
   * or an earlier attempt) when the retries stopped.
   */
  IN_PROGRESS,
  /**
   * An attempt ended with a transport failure that is not retried, after the request may have
   * reached the server.
   */
  TRANSPORT_FAILURE,
  /**
   * The intent is pending and older than the key retention: the server may have forgotten its key,
   * so it was not re-sent. Nothing was sent by this call. Reconcile it with the provider, then
   * abandon it.
   */
  INTENT_EXPIRED,
  /**
   * The key store could not record or read the intent (its cause is the {@link
   * dev.saferetry.idempotency.KeyStoreException}). Nothing was sent by this call, but an earlier
   * call of the same intent may have been: retry the same intent once the store works again.
   */
  KEY_STORE_FAILED,
  /**
   * The call was cancelled (its future cancelled, or its thread interrupted) after a request may
   * have been sent.
   */
  CANCELLED;

  @Override
  public Outcome outcome() {
    return Outcome.UNKNOWN;
  }
}
