package dev.saferetry.error;

import dev.saferetry.Attempt;
import dev.saferetry.idempotency.IdempotencyKey;
import java.util.List;

/**
 * A pending intent is older than the key retention: the server may have forgotten its key, so
 * re-sending it could execute a second time. Nothing was sent. Reconcile the outcome with the
 * provider (look the payment up), then {@code abandonIntent} it or record the result.
 *
 * <p>Instances are immutable and thread-safe.
 */
public final class IntentExpiredException extends OutcomeUnknownException {
  private static final long serialVersionUID = 1L;

  /** Creates the exception. */
  public IntentExpiredException(IdempotencyKey key, String intentId) {
    super(
        "pending intent is older than the key retention and was not re-sent with its stale key;"
            + " reconcile its outcome with the provider, then abandon it",
        null,
        key,
        intentId,
        List.<Attempt>of(),
        null);
  }
}
