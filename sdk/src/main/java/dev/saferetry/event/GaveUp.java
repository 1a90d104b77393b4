package dev.saferetry.event;

import dev.saferetry.Outcome;
import dev.saferetry.idempotency.IdempotencyKey;

/**
 * A call ended without success.
 *
 * @param operation the operation name
 * @param intentId the intent id, or {@code null}
 * @param key the idempotency key, or {@code null}
 * @param outcome {@link Outcome#FAILED} or {@link Outcome#UNKNOWN}
 * @param attempts how many attempts were made
 * @param reason a short reason, safe to log
 *     <p>Instances are immutable and thread-safe.
 */
public record GaveUp(
    String operation,
    String intentId,
    IdempotencyKey key,
    Outcome outcome,
    int attempts,
    String reason) {}
