package dev.saferetry.conformance;

/**
 * How binding a conformance case is. Only a failed {@link #MUST} makes the run fail (exit status
 * 1); SHOULD and MAY failures are reported. Thread-safe (an enum).
 */
public enum Level {
  /** Universal: exactly one side effect per key, no key wedged forever, replay of the outcome. */
  MUST,
  /** Expected by the selected profile (e.g. the IETF draft's status codes). */
  SHOULD,
  /** Optional behaviour, reported for information. */
  MAY
}
