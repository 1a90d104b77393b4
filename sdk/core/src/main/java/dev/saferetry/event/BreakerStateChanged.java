package dev.saferetry.event;

/**
 * The client's circuit breaker changed state.
 *
 * <p>Instances are immutable and thread-safe.
 *
 * @param from the previous state
 * @param to the new state
 */
public record BreakerStateChanged(BreakerState from, BreakerState to) {}
