package dev.saferetry.conformance;

import java.util.List;
import java.util.Objects;

/**
 * One conformance case: a stable id, its default level, the one-line description printed in
 * reports, the cases it depends on, and the body that runs it against a {@link Probe}.
 *
 * @param id stable id, e.g. {@code replay.same-payload}
 * @param level default level (a profile may override it with {@code level.<id>})
 * @param description one line: what a conforming server does
 * @param dependsOn ids of earlier cases this one builds on: when one of them FAILED, this case is
 *     NOT RUN with a reason naming it, instead of failing with a message that blames something else
 * @param body the case; it ends normally on a pass, or throws {@link CaseFailure} or {@link NotRun}
 */
record CaseSpec(String id, Level level, String description, List<String> dependsOn, Body body) {

  /** The code of a case. */
  @FunctionalInterface
  interface Body {
    void run(Probe probe) throws Exception;
  }

  CaseSpec {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(level, "level");
    Objects.requireNonNull(description, "description");
    dependsOn = List.copyOf(dependsOn);
    Objects.requireNonNull(body, "body");
  }

  static CaseSpec must(String id, String description, Body body) {
    return new CaseSpec(id, Level.MUST, description, List.of(), body);
  }

  static CaseSpec should(String id, String description, Body body) {
    return new CaseSpec(id, Level.SHOULD, description, List.of(), body);
  }

  static CaseSpec may(String id, String description, Body body) {
    return new CaseSpec(id, Level.MAY, description, List.of(), body);
  }

  /** This case, NOT RUN whenever one of {@code ids} FAILED earlier in the run. */
  CaseSpec after(String... ids) {
    return new CaseSpec(id, level, description, List.of(ids), body);
  }
}
