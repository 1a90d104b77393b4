package dev.saferetry.conformance;

/** A declared hook did not answer as declared (non-2xx, unreadable count, I/O error). */
final class HookFailure extends RuntimeException {
  private static final long serialVersionUID = 1L;

  HookFailure(String message) {
    super(message, null, false, false);
  }
}
