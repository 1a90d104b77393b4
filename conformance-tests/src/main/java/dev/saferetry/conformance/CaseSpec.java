package dev.saferetry.conformance;

import java.util.Objects;

/**
 * One conformance case: a stable id, its default level, the one-line description printed in
 * reports, and the body that runs it against a {@link Probe}.
 *
 * @param id stable id, e.g. {@code replay.same-payload}
 * @param level default level (a profile may override it with {@code level.<id>})
 * @param description one line: what a conforming server does
 * @param body the case; it ends normally on a pass, or throws {@link CaseFailure} or {@link NotRun}
 */
record CaseSpec(String id, Level level, String description, Body body) {

  /** The code of a case. */
  @FunctionalInterface
  interface Body {
    void run(Probe probe) throws Exception;
  }

  CaseSpec {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(level, "level");
    Objects.requireNonNull(description, "description");
    Objects.requireNonNull(body, "body");
  }

  static CaseSpec must(String id, String description, Body body) {
    return new CaseSpec(id, Level.MUST, description, body);
  }

  static CaseSpec should(String id, String description, Body body) {
    return new CaseSpec(id, Level.SHOULD, description, body);
  }

  static CaseSpec may(String id, String description, Body body) {
    return new CaseSpec(id, Level.MAY, description, body);
  }
}
