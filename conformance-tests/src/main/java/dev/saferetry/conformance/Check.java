package dev.saferetry.conformance;

/**
 * The verdict helpers cases use instead of an assertion library: each failure message is written by
 * the case, in plain words, and carries no "expected: &lt;true&gt; but was: &lt;false&gt;".
 * Stateless and thread-safe.
 */
final class Check {
  private Check() {}

  /** Fails the case with {@code message} unless {@code condition} holds. */
  static void require(boolean condition, String message) {
    if (!condition) {
      throw new CaseFailure(message);
    }
  }

  /**
   * Fails the case with {@code message} unless {@code condition} holds — a check that needs a
   * working basic replay to mean anything (status, body or headers of a replay, a retry that is
   * rejected). When {@code replay.basic} FAILED in the same run, the failure is reported as NOT RUN
   * naming it, not as a second finding that blames something else. Never for a check that shows a
   * second side effect or a second resource.
   */
  static void requireReplay(boolean condition, String message) {
    if (!condition) {
      throw new CaseFailure(message, ReplayCases.BASIC);
    }
  }

  /** Ends the case as NOT RUN with {@code reason} unless {@code condition} holds. */
  static void runOnlyIf(boolean condition, String reason) {
    if (!condition) {
      throw new NotRun(reason);
    }
  }

  /** Ends the case as NOT RUN unless {@code value} is declared, and returns it. */
  static String declared(Probe t, String key, String what) {
    String value = t.config(key);
    runOnlyIf(value != null, "needs " + what + " (" + key + "), not declared by the profile");
    return value;
  }
}
