package dev.saferetry.conformance;

import dev.saferetry.conformance.server.ReferenceServer;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Runs the suite programmatically from tests; configuration never goes through globals. */
final class SuiteRuns {
  private SuiteRuns() {}

  /** Runs with explicit overrides; reports land in target/conformance-reports/{name}. */
  static RunResult run(String name, Map<String, String> explicit) {
    Path reports = Path.of("target", "conformance-reports", name);
    return ConformanceRunner.run(SuiteConfig.resolve(explicit), reports, System.out);
  }

  /** Runs against a started reference server (or broken variant) with its hooks declared. */
  static RunResult against(ReferenceServer server, String name) {
    Map<String, String> explicit = new LinkedHashMap<>();
    explicit.put("target", server.baseUrl());
    explicit.put("profile", "ietf,reference");
    return run(name, explicit);
  }

  /** Ids of failed cases at a level. */
  static List<String> failed(RunResult run, Level level) {
    return run.results().stream()
        .filter(r -> r.verdict() == CaseResult.Verdict.FAIL && r.level() == level)
        .map(r -> r.id() + " (" + r.message() + ")")
        .toList();
  }
}
