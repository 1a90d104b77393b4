package dev.saferetry.event;

import dev.saferetry.idempotency.IdempotencyKey;
import java.time.Duration;

/**
 * The client will retry after a delay.
 *
 * <p>Instances are immutable and thread-safe.
 *
 * @param callId the id of the call's {@link CallStarted}
 * @param operation the operation name
 * @param key the idempotency key the retry will carry (the same as before)
 * @param nextAttempt the number of the coming attempt
 * @param delay how long the client waits first
 * @param serverHint whether the delay came from the server ({@code Retry-After} and friends)
 */
public record RetryScheduled(
    String callId,
    String operation,
    IdempotencyKey key,
    int nextAttempt,
    Duration delay,
    boolean serverHint) {}
