package dev.saferetry.error;

import dev.saferetry.Attempt;
import dev.saferetry.Outcome;
import dev.saferetry.idempotency.IdempotencyKey;
import java.util.List;

/**
 * The request provably never reached the server (every attempt failed to connect, or a
 * non-retryable I/O failure happened before sending), so the outcome is {@link Outcome#FAILED}.
 * Calling again with the same intent is safe.
 *
 * <p>Instances are immutable and thread-safe.
 */
public final class TransportException extends SafeRetryException {
  private static final long serialVersionUID = 1L;

  /** Creates the exception. */
  public TransportException(
      String reason,
      Outcome outcome,
      IdempotencyKey key,
      String intentId,
      List<Attempt> attempts,
      Throwable cause) {
    super(reason, outcome, key, intentId, attempts, cause);
  }
}
