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
 * @param dependsOn ids of earlier cases this one builds on. The case runs whatever they ended with;
 *     when one of them FAILED, a check of this case that needs it ({@link Check#requireReplay})
 *     ends the case NOT RUN naming it, instead of failing with a message that blames something
 *     else, while a check that shows a flaw of its own (a second side effect) still fails it
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

  /** This case, built on {@code ids}: see {@link #dependsOn()}. */
  CaseSpec after(String... ids) {
    return new CaseSpec(id, level, description, List.of(ids), body);
  }
}
