package dev.saferetry;

import dev.saferetry.error.SafeRetryException;
import dev.saferetry.idempotency.IntentRecord;
import dev.saferetry.idempotency.IntentState;
import dev.saferetry.idempotency.KeyStore;
import java.util.Objects;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs a {@link Reconciler} for a client and records what it proves: a found resource completes the
 * intent (status 0: settled by a lookup, not by an answer to the intent's request). Not API.
 *
 * <p>Thread-safe (stateless).
 */
final class Reconciling {
  private static final Logger LOG = LoggerFactory.getLogger("dev.saferetry");

  private Reconciling() {}

  /**
   * Reconciles {@code intent} through {@code client} (whose settings are {@code config}); a failed
   * lookup is {@code UNRESOLVED}.
   *
   * @throws IllegalArgumentException if the intent belongs to another tenant than the client's
   */
  public static Reconciliation run(
      SafeRetryClient client, ClientConfig config, IntentRecord intent, Reconciler reconciler) {
    Objects.requireNonNull(intent, "intent");
    Objects.requireNonNull(reconciler, "reconciler");
    if (!intent.scope().tenant().equals(config.tenant())) {
      throw new IllegalArgumentException(
          "intent "
              + intent.intentId()
              + " belongs to tenant '"
              + intent.scope().tenant()
              + "', but this client works for tenant '"
              + config.tenant()
              + "'");
    }
    Reconciliation found;
    try {
      found = Objects.requireNonNull(reconciler.reconcile(intent, client), "reconciliation");
    } catch (SafeRetryException e) {
      found =
          Reconciliation.unresolved("the lookup failed: " + e.outcome() + " (" + e.reason() + ")");
    }
    if (found.found()) {
      record(config.keyStore(), intent, found);
    }
    return found;
  }

  /** Completes the stored intent if it is still pending with the reconciled key. */
  private static void record(KeyStore store, IntentRecord intent, Reconciliation found) {
    Optional<IntentRecord> stored = store.find(intent.scope(), intent.intentId());
    if (stored.isEmpty()
        || !stored.get().key().equals(intent.key())
        || stored.get().state() != IntentState.PENDING) {
      return;
    }
    IntentState state = found.isSucceeded() ? IntentState.SUCCEEDED : IntentState.FAILED;
    String id = Intents.storable(found.resourceId()) ? found.resourceId() : null;
    store.complete(stored.get().complete(state, 0, id));
    LOG.info(
        "intent {} of {} reconciled as {} (resource {}, idempotency key {})",
        intent.intentId(),
        intent.scope().operation(),
        state,
        id,
        intent.key());
  }
}
