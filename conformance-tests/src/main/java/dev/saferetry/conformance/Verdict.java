package dev.saferetry.conformance;

/**
 * The outcome of one case.
 *
 * <p>Thread-safe (an enum).
 */
public enum Verdict {
  /** The server behaved as the case requires, and the case showed it. */
  PASS,
  /** The server was seen to break the case; the evidence shows how. */
  FAIL,
  /**
   * The case could not show anything: a hook or declaration it needs is missing, its race did not
   * happen, or a precondition (e.g. the payload being accepted with a fresh key) did not hold.
   * Never a pass: a MUST case that did not run leaves the server unproven.
   */
  NOT_RUN,
  /** The case broke off on an infrastructure problem (I/O error, a hook that stopped answering). */
  ERROR
}
