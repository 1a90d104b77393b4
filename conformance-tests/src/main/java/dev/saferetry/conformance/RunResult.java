package dev.saferetry.conformance;

import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Objects;

/**
 * The results of one suite run and where its reports were written.
 *
 * <p>Immutable and thread-safe.
 *
 * @param suiteVersion the suite's version
 * @param startedAt when the run started
 * @param target the graded base URL (or {@code embedded reference server})
 * @param profile the profiles applied, as given
 * @param preflight the checks made before any case (first create, every declared hook), with their
 *     exchanges; its verdict is {@link Verdict#ERROR} when the run could not start
 * @param results one result per case, in execution order; empty when the preflight failed
 * @param markdownReport the Markdown report file, or null when none was written
 * @param junitXml the JUnit XML report file, or null when none was written
 */
public record RunResult(
    String suiteVersion,
    Instant startedAt,
    String target,
    String profile,
    CaseResult preflight,
    List<CaseResult> results,
    Path markdownReport,
    Path junitXml) {

  /**
   * Creates a run result, copying the result list.
   *
   * @param suiteVersion the suite's version
   * @param startedAt when the run started
   * @param target the graded base URL (or {@code embedded reference server})
   * @param profile the profiles applied, as given
   * @param preflight the checks made before any case; its verdict is {@link Verdict#ERROR} when the
   *     run could not start
   * @param results one result per case, in execution order; empty when the preflight failed
   * @param markdownReport the Markdown report file, or null when none was written
   * @param junitXml the JUnit XML report file, or null when none was written
   * @throws NullPointerException if an argument other than the report files is null
   */
  public RunResult {
    Objects.requireNonNull(suiteVersion, "suiteVersion");
    Objects.requireNonNull(startedAt, "startedAt");
    Objects.requireNonNull(target, "target");
    Objects.requireNonNull(profile, "profile");
    Objects.requireNonNull(preflight, "preflight");
    results = List.copyOf(results);
  }

  /** {@return whether the preflight failed, so that no case ran} */
  public boolean configurationError() {
    return preflight.verdict() != Verdict.PASS;
  }

  /** {@return whether any MUST case failed} */
  public boolean mustFailed() {
    return results.stream().anyMatch(CaseResult::mustFailed);
  }

  /** {@return the ids of the MUST cases that did not run or broke off, in execution order} */
  public List<String> mustUnproven() {
    return results.stream().filter(CaseResult::mustUnproven).map(CaseResult::id).toList();
  }

  /**
   * {@return the exit status: a MUST failure first, then a configuration or infrastructure error,
   * then MUST cases not run, else passed}
   */
  public ExitStatus exitStatus() {
    if (mustFailed()) {
      return ExitStatus.MUST_FAILED;
    }
    if (configurationError()
        || results.stream()
            .anyMatch(r -> r.level() == Level.MUST && r.verdict() == Verdict.ERROR)) {
      return ExitStatus.CONFIGURATION_ERROR;
    }
    return mustUnproven().isEmpty() ? ExitStatus.PASSED : ExitStatus.MUST_NOT_RUN;
  }

  /**
   * {@return the result of the case with this id, or null when the run has none}
   *
   * @param id a case id, e.g. {@code replay.basic}
   */
  public CaseResult result(String id) {
    return results.stream().filter(r -> r.id().equals(id)).findFirst().orElse(null);
  }

  /** Returns a copy with the report locations set. */
  RunResult withReports(Path markdown, Path xml) {
    return new RunResult(
        suiteVersion, startedAt, target, profile, preflight, results, markdown, xml);
  }
}
