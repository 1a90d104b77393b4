package dev.saferetry.error;

import dev.saferetry.Attempt;
import dev.saferetry.Outcome;
import dev.saferetry.idempotency.IdempotencyKey;
import java.util.List;

/**
 * The client's circuit breaker is open: the server has been failing, so the call failed fast
 * without network I/O. The intent keeps its key; call again later with the same intent and it
 * reuses the key.
 *
 * <p>The outcome is {@link Outcome#UNKNOWN} when an earlier attempt of this call (or an earlier
 * call of the same intent) may have reached the server, and {@link Outcome#FAILED} when nothing of
 * this intent was ever sent.
 *
 * <p>Instances are immutable and thread-safe.
 */
public final class CircuitOpenException extends SafeRetryException {
  private static final long serialVersionUID = 1L;

  /** Creates the exception. */
  public CircuitOpenException(
      Outcome outcome, IdempotencyKey key, String intentId, List<Attempt> attempts) {
    super("circuit breaker is open; call not sent", outcome, key, intentId, attempts, null);
  }
}
