package dev.saferetry.conformance;

/** The server was seen to break a case. The message says what was seen, in plain words. */
final class CaseFailure extends RuntimeException {
  private static final long serialVersionUID = 1L;

  CaseFailure(String message) {
    super(message, null, false, false);
  }
}
