package dev.saferetry.conformance;

import java.nio.file.Path;
import java.util.List;

/**
 * The results of one suite run and where its reports were written.
 *
 * <p>Immutable and thread-safe.
 *
 * @param target the graded base URL (or {@code embedded reference server})
 * @param profile the profile name
 * @param results one result per case, in execution order
 * @param markdownReport the Markdown report file
 * @param junitXmlDir the directory holding the JUnit XML report
 */
public record RunResult(
    String target,
    String profile,
    List<CaseResult> results,
    Path markdownReport,
    Path junitXmlDir) {

  /** Copies the result list. */
  public RunResult {
    results = List.copyOf(results);
  }

  /** Whether any MUST case failed (the run's exit status is then 1). */
  public boolean mustFailed() {
    return results.stream().anyMatch(CaseResult::mustFailed);
  }

  /** The result of case {@code id}, or null. */
  public CaseResult result(String id) {
    return results.stream().filter(r -> r.id().equals(id)).findFirst().orElse(null);
  }
}
