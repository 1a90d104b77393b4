package dev.saferetry.conformance;

/**
 * The verdict on one case.
 *
 * <p>Immutable and thread-safe.
 *
 * @param id stable case id
 * @param level effective level under the run's profile
 * @param description one-line description
 * @param verdict PASS, FAIL or SKIP
 * @param evidence what was observed (statuses, ids, counts)
 * @param message failure or skip reason, or empty
 */
public record CaseResult(
    String id, Level level, String description, Verdict verdict, String evidence, String message) {

  /** The outcome of a case. Thread-safe (an enum). */
  public enum Verdict {
    PASS,
    FAIL,
    SKIP
  }

  /** Whether this is a failed MUST case. */
  public boolean mustFailed() {
    return verdict == Verdict.FAIL && level == Level.MUST;
  }
}
