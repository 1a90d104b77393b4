package dev.saferetry.error;

import dev.saferetry.Outcome;
import dev.saferetry.idempotency.IdempotencyKey;
import java.util.List;

/**
 * The intent is already recorded with a different request (method, path or body): reusing its key
 * would make the server reject the call or, worse, replay the other request's outcome. Nothing was
 * sent. This is a bug in the caller: one intent id must always describe the same request.
 *
 * <p>Instances are immutable and thread-safe.
 */
public final class IntentMismatchException extends SafeRetryException {
  private static final long serialVersionUID = 1L;

  /** Creates the exception. */
  public IntentMismatchException(IdempotencyKey key, String intentId) {
    super(
        "intent is recorded with a different request fingerprint; not sent",
        Outcome.FAILED,
        key,
        intentId,
        List.of(),
        null);
  }
}
