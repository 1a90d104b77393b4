package dev.saferetry.event;

import dev.saferetry.call.Attempt;
import dev.saferetry.idempotency.IdempotencyKey;

/**
 * An attempt ended, with an answer or a transport failure.
 *
 * <p>Instances are immutable and thread-safe.
 *
 * @param callId the id of the call's {@link CallStarted}
 * @param operation the operation name
 * @param intentId the intent id, or {@code null}
 * @param key the idempotency key, or {@code null} for an operation without one
 * @param attempt what happened on the wire, with its duration
 */
public record AttemptFinished(
    String callId, String operation, String intentId, IdempotencyKey key, Attempt attempt) {}
