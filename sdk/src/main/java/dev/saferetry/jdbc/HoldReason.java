package dev.saferetry.jdbc;

/**
 * Why the relay stopped working on an intent and left it for a person ({@link JdbcOutbox#held}).
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
   * The provider answered in a way that re-sending cannot change and that does not say whether it
   * acted: it replayed an error it stored for the intent's key, or asked not to retry an answer
   * that proves nothing ({@link dev.saferetry.error.UnknownReason#mustReconcile()}). The intent is
   * still pending: reconcile it with the provider (a {@link dev.saferetry.Reconciler} registered
   * with the relay does so on its passes), then abandon it.
   */
  UNSETTLED
}
