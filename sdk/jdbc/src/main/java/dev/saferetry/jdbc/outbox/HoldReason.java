package dev.saferetry.jdbc.outbox;

/**
 * Why the relay stopped working on an intent and left it for a person ({@link JdbcOutbox#held}). A
 * held intent is <b>parked</b>: it is never sent again on its own, and, when it has an ordering
 * key, the later intents of that key wait behind it until an operator resolves it or lets the key
 * continue ({@link OutboxAdmin}).
 *
 * <p>Immutable and thread-safe.
 */
public enum HoldReason {
  /**
   * The intent outlived its retention or the relay's maximum age while its outcome was still
   * unknown: re-sending it with its old key could charge twice once the provider has forgotten the
   * key. Reconcile it with the provider, then abandon it.
   */
  EXPIRED,
  /**
   * The provider answered definitively that it did not act (a non-retryable 4xx, such as a declined
   * card): the business change committed with the intent needs a decision.
   */
  REJECTED,
  /**
   * The row no longer holds the request that was enqueued: its stored request (body, headers,
   * target, method, where the key goes) or its intent's key or fingerprint was changed in the table
   * afterwards, or it cannot be read back as a valid request at all (see the note). Nothing was
   * sent for it by this relay; sending it could charge a changed amount, or another account, under
   * the original key. Find out who changed it; reconcile the intent with the provider (the code
   * that enqueued it may have sent it), then abandon it.
   */
  TAMPERED,
  /**
   * The row is intact, but the relay's client for its tenant cannot send it exactly as recorded
   * without giving up something the SDK guarantees (see the note): its target would leave that
   * client's base URL, one of its headers would replace that client's credential or per-attempt
   * header, or its key's header is one that client sets itself. Nothing was sent for it. Fix the
   * relay's client (or re-enqueue the call), then abandon this intent.
   */
  UNSENDABLE,
  /**
   * The provider answered in a way that re-sending cannot change and that does not say whether it
   * acted: it replayed an error it stored for the intent's key, or asked not to retry an answer
   * that proves nothing ({@link dev.saferetry.error.Reason#mustReconcile()}). The intent is still
   * pending: reconcile it with the provider (a {@link dev.saferetry.Reconciler} registered with the
   * relay does so on its passes), then abandon it.
   */
  UNSETTLED,
  /**
   * The relay claimed the intent as many times as it may ({@link OutboxRelayBuilder#maxClaims})
   * without a definitive answer: the provider kept failing or timing out, or relays kept dying
   * while sending it. The intent is still pending and may have reached the provider: reconcile it,
   * then requeue it (with its key) or abandon it ({@link OutboxAdmin}).
   */
  TOO_MANY_ATTEMPTS
}
