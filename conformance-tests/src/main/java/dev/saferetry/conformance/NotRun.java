package dev.saferetry.conformance;

/** A case could not show anything (missing hook, race not exercised, precondition not met). */
final class NotRun extends RuntimeException {
  private static final long serialVersionUID = 1L;

  NotRun(String reason) {
    super(reason, null, false, false);
  }
}
