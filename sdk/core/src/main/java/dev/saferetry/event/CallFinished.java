package dev.saferetry.event;

import dev.saferetry.call.Outcome;
import dev.saferetry.error.Reason;
import dev.saferetry.idempotency.IdempotencyKey;
import java.time.Duration;

/**
 * A call ended, with a result or an exception: one event per call, success or not, with its total
 * latency — what a timer per operation and outcome needs.
 *
 * <p>Instances are immutable and thread-safe.
 *
 * @param callId the id of the call's {@link CallStarted}
 * @param operation the operation name
 * @param intentId the intent id, or {@code null}
 * @param key the idempotency key, or {@code null} for an operation without one or a call that ended
 *     before its key was fixed
 * @param outcome how the call ended
 * @param reason the reason of the exception the call threw, or {@code null} when it returned a
 *     result
 * @param status the HTTP status of the last attempt, or 0 when it had none
 * @param attempts how many attempts were made
 * @param duration the call's total time, from its start to its end, waits and queueing included
 */
public record CallFinished(
    String callId,
    String operation,
    String intentId,
    IdempotencyKey key,
    Outcome outcome,
    Reason reason,
    int status,
    int attempts,
    Duration duration) {}
