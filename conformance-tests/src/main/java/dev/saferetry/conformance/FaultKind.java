package dev.saferetry.conformance;

import java.util.Locale;

/**
 * The faults a target may let the suite inject into its next request's handling, each declared as a
 * request template {@code hook.fault.<name>} (see {@link HookTemplate}). Thread-safe (an enum).
 */
enum FaultKind {
  /** Hold the key while the handler waits {@code ${millis}} before committing. */
  DELAY("delay"),
  /** Answer {@code ${status}} (a 5xx) without committing anything. */
  FAIL_BEFORE_COMMIT("fail-before-commit"),
  /** Commit the side effect, then answer {@code ${status}} (a 5xx). */
  FAIL_AFTER_COMMIT("fail-after-commit"),
  /** Never finish: the handler holds the key and never commits. */
  HANG("hang"),
  /**
   * The handler throws an exception it does not handle, before committing anything: the framework
   * answers with its own 5xx (e.g. Express's or Nest's default error handler), not a response the
   * application built.
   */
  UNHANDLED_EXCEPTION("unhandled-exception");

  private final String name;

  FaultKind(String name) {
    this.name = name;
  }

  /** The property declaring this fault's hook. */
  String property() {
    return "hook.fault." + name;
  }

  /** The declared template, or null. */
  HookTemplate template(SuiteConfig config) {
    String spec = config.get(property());
    return spec == null ? null : HookTemplate.parse(property(), spec);
  }

  /** Whether {@code a} is the answer this fault makes the next request end with. */
  boolean answered(Answer a, SuiteConfig config) {
    return this == UNHANDLED_EXCEPTION
        ? a.status() >= 500 && a.status() <= 599
        : a.status() == status(config);
  }

  /** What {@link #answered} expects, for messages. */
  String expected(SuiteConfig config) {
    return this == UNHANDLED_EXCEPTION ? "a 5xx" : Integer.toString(status(config));
  }

  /** The status the fault must answer (configurable per kind), or 0 for kinds without one. */
  int status(SuiteConfig config) {
    return switch (this) {
      case FAIL_BEFORE_COMMIT -> config.getInt("fault.status.before-commit", 503);
      case FAIL_AFTER_COMMIT -> config.getInt("fault.status.after-commit", 500);
      default -> 0;
    };
  }

  @Override
  public String toString() {
    return name.toLowerCase(Locale.ROOT);
  }

  /** Parses every declared hook template, so that a malformed one fails before the run. */
  static void validateDeclared(SuiteConfig config) {
    for (FaultKind kind : values()) {
      kind.template(config);
    }
    for (String property : new String[] {"hook.fault.reset", "hook.clock", "hook.restart"}) {
      String spec = config.get(property);
      if (spec != null) {
        HookTemplate.parse(property, spec);
      }
    }
    for (FaultKind kind : new FaultKind[] {FAIL_BEFORE_COMMIT, FAIL_AFTER_COMMIT}) {
      int status = kind.status(config);
      if (status < 500 || status > 599) {
        throw new IllegalArgumentException(
            "the injected status of " + kind + " must be a 5xx, got " + status);
      }
    }
  }
}
