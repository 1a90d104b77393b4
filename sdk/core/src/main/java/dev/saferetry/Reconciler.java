package dev.saferetry;

import dev.saferetry.idempotency.IntentRecord;

/**
 * Looks up at the provider what became of an intent whose outcome the SDK does not know: one that
 * ended UNKNOWN, one that outlived its key's retention while pending, or one the outbox relay held
 * for a person. One reconciler per operation; run it with {@link SafeRetryClient#reconcile} (the
 * outbox relay runs it too).
 *
 * <p>A typical lookup finds the provider's resource by a field the request carried that names the
 * intent, for example a metadata entry holding the intent id (see {@code
 * dev.saferetry.provider.StripeReconciler}).
 *
 * <p>Answer {@link Reconciliation#succeeded} or {@link Reconciliation#failed} only for a resource
 * that provably is this intent's: found in the intent's account or tenant scope, naming exactly
 * this intent id, for the amounts and parties the intent's request carried. The intent record keeps
 * only a fingerprint of its request, so take those expected values from your own records (as {@code
 * StripeReconciler} does through its expectation function); a resource of another tenant or intent
 * would otherwise complete this one, and the intent's own effect would be lost or repeated.
 *
 * <p>Answer {@link Reconciliation#nothingExists()} only when the provider's answer proves it: an
 * intent answered "nothing exists" may be sent again with a new key, and a lookup that missed an
 * existing resource would then charge twice. When in doubt (the provider's search lags, the lookup
 * failed), answer {@link Reconciliation#unresolved}.
 *
 * <p>Implementations must be thread-safe.
 */
@FunctionalInterface
public interface Reconciler {
  /**
   * Looks the intent's effect up at the provider.
   *
   * @param intent the intent, with its key and scope
   * @param client a client of the intent's tenant, to send the lookup with
   * @return what the provider's answer proves
   */
  Reconciliation reconcile(IntentRecord intent, SafeRetryClient client);
}
