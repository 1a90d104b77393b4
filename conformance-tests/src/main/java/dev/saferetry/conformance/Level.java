package dev.saferetry.conformance;

/**
 * How binding a conformance case is. A failed {@link #MUST} makes the run fail (exit status 1) and
 * a {@link #MUST} that could not run leaves the server unproven (exit status 3); SHOULD and MAY
 * results are reported and never change the exit status. A profile may change a case's level with
 * {@code level.<case-id>=SHOULD}.
 *
 * <p>Thread-safe (an enum).
 */
public enum Level {
  /** Exactly-once depends on it: one side effect per key, no key wedged forever, replay. */
  MUST,
  /** Expected by the selected profile (e.g. the IETF draft's status codes). */
  SHOULD,
  /** Optional behaviour, reported for information. */
  MAY
}
