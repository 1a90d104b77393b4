package dev.saferetry.event;

/**
 * A call started: its request was validated and it is about to record its intent (if it names one)
 * and send its first attempt. Every call that starts ends with exactly one {@link CallFinished}
 * carrying the same {@code callId}.
 *
 * <p>Instances are immutable and thread-safe.
 *
 * @param callId an id unique to this call, to correlate its events (e.g. a tracing span per call)
 * @param operation the operation name
 * @param method the HTTP method
 * @param intentId the intent id, or {@code null}
 */
public record CallStarted(String callId, String operation, String method, String intentId) {}
