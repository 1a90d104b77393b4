package dev.saferetry.error;

import dev.saferetry.call.Outcome;

/**
 * Why a call ended as it did: the {@link SafeRetryException#reason() reason} of an exception. Every
 * reason belongs to one {@link #outcome() outcome}, so the outcome can always be read off the
 * reason:
 *
 * <ul>
 *   <li>{@link Outcome#FAILED} — the SDK holds proof that the call had no effect, either a
 *       definitive answer from the server or the certainty that nothing of the intent reached it
 *       ({@link #REJECTED} to {@link #CANCELLED}; thrown as {@link CallFailedException});
 *   <li>{@link Outcome#UNKNOWN} — the request may have reached the server, and nothing proves
 *       whether it had an effect ({@link #RETRIES_EXHAUSTED} to {@link
 *       #EXISTING_RESOURCE_ID_UNUSABLE}; thrown as {@link OutcomeUnknownException}). For most of
 *       them, retry the same intent later: it reuses the same key, so the server either performs it
 *       once or replays the first outcome. For those whose {@link #mustReconcile()} is true,
 *       retrying cannot settle the outcome: look the intent up at the provider instead (a {@link
 *       dev.saferetry.Reconciler}, or by hand);
 *   <li>{@link Outcome#SUCCEEDED} — the server answered 2xx, so the effect exists, but the answer
 *       could not be turned into the response type ({@link #BODY_UNREADABLE}, {@link
 *       #BODY_TOO_LARGE}; thrown as {@link ResponseBodyException}). Do not retry it as a failure:
 *       calling the same intent again makes the server replay the stored response.
 * </ul>
 *
 * <p>The circuit breaker and a cancellation end a call FAILED when nothing of the intent was sent
 * ({@link #CIRCUIT_OPEN}, {@link #CANCELLED}) and UNKNOWN when a request may have been sent ({@link
 * #CIRCUIT_OPEN_AFTER_SEND}, {@link #CANCELLED_AFTER_SEND}).
 *
 * <p>Immutable and thread-safe.
 */
public enum Reason {
  // FAILED: the effect does not exist.

  /**
   * The server answered with a definitive error: a status below 500 that the retry classifier does
   * not retry (400, 401, 402, 403, 404, a 3xx, ...), also when the provider replays it as the
   * stored answer of the key. Thrown as {@link ApiException}. Fix the request; retrying it
   * unchanged will not help. A server error (5xx) never ends here, and neither does an answer the
   * classifier retries (408, 409, 429, ...) whatever a should-retry header says: such answers do
   * not prove that nothing happened, and end {@link Outcome#UNKNOWN}.
   */
  REJECTED(Outcome.FAILED),
  /**
   * The server says the key was already used with another request (422, or Stripe's 400 {@code
   * idempotency_error}). Thrown as {@link IdempotencyKeyReusedException}. A bug in the caller: one
   * key was reused for two intents, or the payload changed between retries.
   */
  KEY_REUSED(Outcome.FAILED),
  /**
   * No attempt got as far as handing the request to a connection (refused, unreachable, unknown
   * host, TLS handshake, connect timeout), whatever then stopped the retries. Nothing was sent:
   * calling again with the same intent is safe.
   */
  NOT_SENT(Outcome.FAILED),
  /**
   * The client's circuit breaker is open and nothing of this intent was ever sent. Call again later
   * with the same intent.
   */
  CIRCUIT_OPEN(Outcome.FAILED),
  /**
   * The intent is recorded with another request (method, path, query or body). Nothing was sent. A
   * bug in the caller: one intent id must always describe the same request.
   */
  INTENT_MISMATCH(Outcome.FAILED),
  /**
   * The caller supplied an idempotency key, but the intent is recorded with another one. Nothing
   * was sent. A bug in the caller: an intent keeps the key it was first recorded with.
   */
  INTENT_KEY_CONFLICT(Outcome.FAILED),
  /** The call was cancelled before anything of it was sent. */
  CANCELLED(Outcome.FAILED),

  // UNKNOWN: the effect may exist.

  /** The retry policy's maximum number of attempts was reached after ambiguous failures. */
  RETRIES_EXHAUSTED(Outcome.UNKNOWN),
  /** The next retry would have started after the retry policy's overall deadline. */
  DEADLINE_EXCEEDED(Outcome.UNKNOWN),
  /** The client's retry budget had no token left for another retry. */
  RETRY_BUDGET_EXHAUSTED(Outcome.UNKNOWN),
  /**
   * The server asked to wait ({@code Retry-After}) longer than the retry policy's ceiling; see
   * {@link OutcomeUnknownException#retryAfter()}.
   */
  RETRY_AFTER_TOO_LONG(Outcome.UNKNOWN),
  /** The client's circuit breaker opened after an attempt of this intent may have been sent. */
  CIRCUIT_OPEN_AFTER_SEND(Outcome.UNKNOWN),
  /**
   * The server still answered 409: a request with this key is in progress (another thread, process,
   * or an earlier attempt) when the retries stopped.
   */
  IN_PROGRESS(Outcome.UNKNOWN),
  /**
   * An attempt ended with a transport failure that is not retried, after the request may have
   * reached the server.
   */
  TRANSPORT_FAILURE(Outcome.UNKNOWN),
  /**
   * The intent is pending and older than the key retention: the server may have forgotten its key,
   * so it was not re-sent. Nothing was sent by this call. Reconcile it with the provider, then
   * abandon it.
   */
  INTENT_EXPIRED(Outcome.UNKNOWN),
  /**
   * An operator abandoned the intent (in an outbox: {@code OutboxAdmin.abandon}): it is never sent
   * again under its intent id until an operator releases it with an action that is itself recorded,
   * so this call sent nothing. The provider may have acted on it before the abandonment; the
   * message and the cause (an {@link dev.saferetry.idempotency.IntentRefusedException}) say who
   * abandoned it, when and why. Reconcile it with the provider; do not retry it.
   */
  INTENT_ABANDONED(Outcome.UNKNOWN),
  /**
   * The key store holds the intent for another sender or for a person — an outbox's relays send it
   * in its ordering key's order, or it is parked until an operator resolves it — so this call sent
   * nothing. Its outcome is whatever that sender or person ends it with: call the same intent again
   * later for its recorded outcome, or look at it in the outbox.
   */
  INTENT_HELD(Outcome.UNKNOWN),
  /**
   * The key store could not confirm the intent's state: whether it holds the intent, and with which
   * key, is not known (its cause is the {@link dev.saferetry.idempotency.KeyStoreException}; the
   * write may or may not have landed). Nothing was sent by this call, but an earlier call of the
   * same intent may have been: retry the same intent once the store works again.
   */
  KEY_STORE_FAILED(Outcome.UNKNOWN),
  /**
   * The call was cancelled (its future cancelled, or its thread interrupted) after a request may
   * have been sent.
   */
  CANCELLED_AFTER_SEND(Outcome.UNKNOWN),
  /**
   * The provider answered with an error it marked as a replay ({@code Idempotent-Replayed: true},
   * or the preset's marker) on a status that does not prove the request had no effect (a 5xx, 408,
   * 409 or 429): the provider stored that error as the result of the idempotency key and answers
   * every retry with it for as long as it keeps the key (Stripe stores a 500 once its endpoint
   * began executing). The call ends at once, without further attempts. Whether anything was created
   * is unknown, so the intent stays pending; do not retry it — reconcile it with the provider (look
   * up whether the resource exists), then complete or abandon it.
   */
  PROVIDER_STORED_ERROR(Outcome.UNKNOWN),
  /**
   * The server answered with a status that does not prove the request had no effect (a 5xx, 408,
   * 409 or 429) and asked not to retry it ({@code Stripe-Should-Retry: false}, or the retry
   * policy's should-retry header). The hint stops the retries; it does not prove that nothing
   * happened, so the intent stays pending. Reconcile it with the provider before sending it again.
   */
  SERVER_SAID_DO_NOT_RETRY(Outcome.UNKNOWN),
  /**
   * The server answered with a server error (5xx) that the retry classifier does not retry (the
   * standard classifier retries only 500, 502, 503 and 504: a 501, 505 or a gateway's 520–524 ends
   * here). A server error never proves that the request had no effect, so the intent stays pending;
   * retry the same intent later.
   */
  SERVER_ERROR_NOT_RETRIED(Outcome.UNKNOWN),
  /**
   * The server rejected an attempt (a 4xx such as 400, 401 or 422) after an earlier attempt of the
   * same call may have been executed (a read timeout, a reset, a 5xx, 408, 409 or 429). The
   * rejection proves only that this attempt did nothing; the earlier one may have charged. The
   * intent stays pending: reconcile it with the provider.
   */
  REJECTED_AFTER_AMBIGUOUS_ATTEMPT(Outcome.UNKNOWN),
  /**
   * The server answered with a redirect (3xx). The SDK never follows a redirect, and a redirect
   * does not prove that the request had no effect, so the intent stays pending: reconcile it with
   * the provider (and check the base URL).
   */
  REDIRECTED(Outcome.UNKNOWN),
  /**
   * The provider answered with its "already created" conflict (the client's {@code
   * existingResource} rule) but named no usable resource id (missing, too long, or not visible
   * ASCII). The resource exists but cannot be identified from this answer; another attempt would
   * get the same answer, so the call ends at once and the intent stays pending: reconcile it with
   * the provider.
   */
  EXISTING_RESOURCE_ID_UNUSABLE(Outcome.UNKNOWN),

  // SUCCEEDED: the effect exists, the answer could not be read.

  /** The body is not JSON, is truncated, or does not fit the response type. */
  BODY_UNREADABLE(Outcome.SUCCEEDED),
  /** The body is larger than the client's {@code maxResponseBytes}; it was not read. */
  BODY_TOO_LARGE(Outcome.SUCCEEDED);

  // The outcome of every call that ends for this reason.
  private final Outcome outcome;

  Reason(Outcome outcome) {
    this.outcome = outcome;
  }

  /** {@return the outcome every call that ends for this reason has} */
  public Outcome outcome() {
    return outcome;
  }

  /**
   * {@return whether sending the intent again cannot settle its outcome, so that it must be
   * reconciled with the provider (looked up there) rather than retried: true for {@link
   * #PROVIDER_STORED_ERROR}, {@link #SERVER_SAID_DO_NOT_RETRY}, {@link #INTENT_EXPIRED}, {@link
   * #INTENT_ABANDONED}, {@link #REJECTED_AFTER_AMBIGUOUS_ATTEMPT}, {@link #REDIRECTED} and {@link
   * #EXISTING_RESOURCE_ID_UNUSABLE}, all of them {@link Outcome#UNKNOWN}; false for every other
   * reason}
   */
  public boolean mustReconcile() {
    return this == PROVIDER_STORED_ERROR
        || this == SERVER_SAID_DO_NOT_RETRY
        || this == INTENT_EXPIRED
        || this == INTENT_ABANDONED
        || this == REJECTED_AFTER_AMBIGUOUS_ATTEMPT
        || this == REDIRECTED
        || this == EXISTING_RESOURCE_ID_UNUSABLE;
  }
}
