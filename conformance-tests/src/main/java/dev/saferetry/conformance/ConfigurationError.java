package dev.saferetry.conformance;

/**
 * The configuration cannot grade the target: unreachable target, first create failing, a declared
 * hook that does not answer or does not do what it is declared to do.
 */
final class ConfigurationError extends RuntimeException {
  private static final long serialVersionUID = 1L;

  ConfigurationError(String message) {
    super(message, null, false, false);
  }
}
