package dev.saferetry.event;

/**
 * The client's circuit breaker changed state.
 *
 * @param from the previous state
 * @param to the new state
 *     <p>Instances are immutable and thread-safe.
 */
public record BreakerStateChanged(BreakerState from, BreakerState to) {}
