package dev.saferetry.conformance;

import dev.saferetry.conformance.server.ReferenceServer;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/** Runs the suite programmatically from tests; configuration never goes through globals. */
final class SuiteRuns {
  private SuiteRuns() {}

  /** Runs with explicit overrides; reports land in target/conformance-reports/{name}. */
  static RunResult run(String name, Map<String, String> explicit) {
    Path reports = Path.of("target", "conformance-reports", name);
    ByteArrayOutputStream console = new ByteArrayOutputStream();
    RunResult run =
        ConformanceRunner.run(
            SuiteConfig.resolve(explicit),
            reports,
            new PrintStream(console, true, StandardCharsets.UTF_8));
    System.out.println(console.toString(StandardCharsets.UTF_8));
    try {
      JunitXml.assertAgreesWith(run); // every run's JUnit XML says what its exit status says
    } catch (Exception e) {
      throw new IllegalStateException("unreadable JUnit XML report " + run.junitXml(), e);
    }
    return run;
  }

  /** Runs against a started reference server (or a variant) with its hooks declared. */
  static RunResult against(ReferenceServer server, String name, Map<String, String> extra) {
    Map<String, String> explicit = new LinkedHashMap<>();
    explicit.put("target", server.baseUrl());
    explicit.put("profile", "ietf,reference");
    explicit.putAll(extra);
    return run(name, explicit);
  }

  static RunResult against(ReferenceServer server, String name) {
    return against(server, name, Map.of());
  }

  /** Ids of the cases with this level and verdict. */
  static Set<String> ids(RunResult run, Level level, Verdict verdict) {
    Set<String> ids = new TreeSet<>();
    run.results().stream()
        .filter(r -> r.level() == level && r.verdict() == verdict)
        .forEach(r -> ids.add(r.id()));
    return ids;
  }

  /** "id: message" of every case that did not pass, for assertion messages. */
  static String problems(RunResult run) {
    StringBuilder b = new StringBuilder(run.preflight().message());
    run.results().stream()
        .filter(r -> r.verdict() != Verdict.PASS)
        .forEach(
            r ->
                b.append("\n")
                    .append(r.id())
                    .append(' ')
                    .append(r.verdict())
                    .append(": ")
                    .append(r.message()));
    return b.toString();
  }
}
