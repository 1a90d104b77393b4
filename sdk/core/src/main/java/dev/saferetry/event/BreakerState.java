package dev.saferetry.event;

/**
 * The states of a client's circuit breaker.
 *
 * <p>Immutable and thread-safe.
 */
public enum BreakerState {
  /** Calls flow normally. */
  CLOSED,
  /** Calls fail fast without I/O. */
  OPEN,
  /** A few probe calls are let through to test recovery. */
  HALF_OPEN,
  /** The breaker is switched off. */
  DISABLED
}
