package dev.saferetry.conformance;

/**
 * The exit status of a suite run, from the strongest finding down: a MUST case failed; the run
 * could not be trusted (configuration or infrastructure error); MUST cases did not run; every MUST
 * case ran and passed.
 *
 * <p>Thread-safe (an enum).
 */
public enum ExitStatus {
  /** Every MUST case ran and passed (SHOULD and MAY results do not count). */
  PASSED(0, "every MUST case ran and passed"),
  /** At least one MUST case failed: the server is not safe to retry against. */
  MUST_FAILED(1, "a MUST case FAILED: the server is not safe to retry against"),
  /**
   * The run could not grade the server: unreachable target, a declared hook that does not work, a
   * first request that fails, a usage error, or a MUST case broken off by an infrastructure error.
   */
  CONFIGURATION_ERROR(2, "configuration or infrastructure error: the server was not graded"),
  /** No MUST case failed, but some did not run: the server was not shown to be safe. */
  MUST_NOT_RUN(3, "MUST cases did not run: the server was NOT shown to be safe");

  private final int code;
  private final String meaning;

  ExitStatus(int code, String meaning) {
    this.code = code;
    this.meaning = meaning;
  }

  /** {@return the process exit code: 0, 1, 2 or 3} */
  public int code() {
    return code;
  }

  /** {@return one line saying what this status means, as the console report prints it} */
  public String meaning() {
    return meaning;
  }
}
