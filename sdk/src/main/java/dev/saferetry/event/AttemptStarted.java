package dev.saferetry.event;

import dev.saferetry.idempotency.IdempotencyKey;

/**
 * An attempt is about to be sent.
 *
 * @param operation the operation name
 * @param intentId the intent id, or {@code null}
 * @param key the idempotency key, or {@code null} for a GET
 * @param attempt 1 for the first attempt
 * @param requestId the request id this attempt carries
 *     <p>Instances are immutable and thread-safe.
 */
public record AttemptStarted(
    String operation, String intentId, IdempotencyKey key, int attempt, String requestId) {}
