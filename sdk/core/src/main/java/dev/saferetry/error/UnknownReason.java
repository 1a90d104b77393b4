package dev.saferetry.error;

import dev.saferetry.Outcome;

/**
 * Why a call ended {@link Outcome#UNKNOWN}: the request may have reached the server, and nothing
 * proves whether it had an effect. For most reasons, retry the same intent later: it reuses the
 * same key, so the server either performs it once or replays the first outcome. For the reasons
 * whose {@link #mustReconcile()} is true, retrying cannot settle the outcome: look the intent up at
 * the provider instead (a {@link dev.saferetry.Reconciler}, or by hand).
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
   * The key store could not confirm the intent's state: whether it holds the intent, and with which
   * key, is not known (its cause is the {@link dev.saferetry.idempotency.KeyStoreException}; the
   * write may or may not have landed). Nothing was sent by this call, but an earlier call of the
   * same intent may have been: retry the same intent once the store works again.
   */
  KEY_STORE_FAILED,
  /**
   * The call was cancelled (its future cancelled, or its thread interrupted) after a request may
   * have been sent.
   */
  CANCELLED,
  /**
   * The provider answered with an error it marked as a replay ({@code Idempotent-Replayed: true},
   * or the preset's marker) on a status that does not prove the request had no effect (a 5xx, 408,
   * 409 or 429): the provider stored that error as the result of the idempotency key and answers
   * every retry with it for as long as it keeps the key (Stripe stores a 500 once its endpoint
   * began executing). The call ends at once, without further attempts. Whether anything was created
   * is unknown, so the intent stays pending; do not retry it — reconcile it with the provider (look
   * up whether the resource exists), then complete or abandon it.
   */
  PROVIDER_STORED_ERROR,
  /**
   * The server answered with a status that does not prove the request had no effect (a 5xx, 408,
   * 409 or 429) and asked not to retry it ({@code Stripe-Should-Retry: false}, or the retry
   * policy's should-retry header). The hint stops the retries; it does not prove that nothing
   * happened, so the intent stays pending. Reconcile it with the provider before sending it again.
   */
  SERVER_SAID_DO_NOT_RETRY,
  /**
   * The server answered with a server error (5xx) that the retry classifier does not retry (the
   * standard classifier retries only 500, 502, 503 and 504: a 501, 505 or a gateway's 520–524 ends
   * here). A server error never proves that the request had no effect, so the intent stays pending;
   * retry the same intent later.
   */
  SERVER_ERROR_NOT_RETRIED,
  /**
   * The server rejected an attempt (a 4xx such as 400, 401 or 422) after an earlier attempt of the
   * same call may have been executed (a read timeout, a reset, a 5xx, 408, 409 or 429). The
   * rejection proves only that this attempt did nothing; the earlier one may have charged. The
   * intent stays pending: reconcile it with the provider.
   */
  REJECTED_AFTER_AMBIGUOUS_ATTEMPT,
  /**
   * The server answered with a redirect (3xx). The SDK never follows a redirect, and a redirect
   * does not prove that the request had no effect, so the intent stays pending: reconcile it with
   * the provider (and check the base URL).
   */
  REDIRECTED,
  /**
   * The provider answered with its "already created" conflict (a preset's {@link
   * dev.saferetry.SafeRetryClientBuilder#existingResource}) but named no usable resource id
   * (missing, too long, or not visible ASCII). The resource exists but cannot be identified from
   * this answer; another attempt would get the same answer, so the call ends at once and the intent
   * stays pending: reconcile it with the provider.
   */
  EXISTING_RESOURCE_ID_UNUSABLE;

  @Override
  public Outcome outcome() {
    return Outcome.UNKNOWN;
  }

  /**
   * Returns whether sending the intent again cannot settle its outcome, so that it must be
   * reconciled with the provider (looked up there) rather than retried: true for {@link
   * #PROVIDER_STORED_ERROR}, {@link #SERVER_SAID_DO_NOT_RETRY}, {@link #INTENT_EXPIRED}, {@link
   * #REJECTED_AFTER_AMBIGUOUS_ATTEMPT}, {@link #REDIRECTED} and {@link
   * #EXISTING_RESOURCE_ID_UNUSABLE}.
   *
   * @return whether the intent must be reconciled instead of retried
   */
  public boolean mustReconcile() {
    return this == PROVIDER_STORED_ERROR
        || this == SERVER_SAID_DO_NOT_RETRY
        || this == INTENT_EXPIRED
        || this == REJECTED_AFTER_AMBIGUOUS_ATTEMPT
        || this == REDIRECTED
        || this == EXISTING_RESOURCE_ID_UNUSABLE;
  }
}
