package dev.saferetry.event;

import dev.saferetry.Attempt;
import dev.saferetry.idempotency.IdempotencyKey;

/**
 * An attempt ended.
 *
 * @param operation the operation name
 * @param intentId the intent id, or {@code null}
 * @param key the idempotency key, or {@code null} for a GET
 * @param attempt what happened on the wire
 *     <p>Instances are immutable and thread-safe.
 */
public record AttemptFinished(
    String operation, String intentId, IdempotencyKey key, Attempt attempt) {}
