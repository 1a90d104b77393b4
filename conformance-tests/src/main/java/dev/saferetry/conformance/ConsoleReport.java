package dev.saferetry.conformance;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Predicate;

/**
 * The summary table and verdict printed after a run; the same verdict lines head the Markdown
 * report and the JUnit XML's {@code verdict} test case. Stateless and thread-safe.
 */
final class ConsoleReport {
  private ConsoleReport() {}

  static void print(RunResult run, PrintStream out) {
    out.println();
    if (!run.results().isEmpty()) {
      out.printf(Locale.ROOT, "%-34s %-6s %-7s %s%n", "CASE", "LEVEL", "RESULT", "EVIDENCE");
      for (CaseResult r : run.results()) {
        String detail = r.evidence() + (r.message().isEmpty() ? "" : " | " + r.message());
        out.printf(
            Locale.ROOT,
            "%-34s %-6s %-7s %s%n",
            r.id(),
            r.level(),
            r.verdict(),
            Redaction.cut(detail, 400));
      }
      out.println();
    }
    verdictLines(run).forEach(out::println);
  }

  /**
   * The summary line (counts per level, the verdict, the exit status), then why cases did not run:
   * the time a profile declared that the run cannot let pass, the failed case others depend on, and
   * the other MUST cases not run.
   */
  static List<String> verdictLines(RunResult run) {
    ExitStatus status = run.exitStatus();
    List<String> lines = new ArrayList<>();
    lines.add(counts(run) + " -- " + status.meaning() + " (exit " + status.code() + ")");
    if (run.configurationError()) {
      lines.add("Configuration error: " + run.preflight().message());
      return lines;
    }
    List<CaseResult> explained = new ArrayList<>();
    group(run, r -> r.message().contains(Hooks.WAIT_BOUND), explained)
        .forEach(
            (reason, group) -> lines.add(label(group) + " not run: " + reason + ": " + ids(group)));
    group(run, r -> r.level() == Level.MUST && dependencyOf(r) != null, explained)
        .forEach(
            (failed, group) ->
                lines.add("MUST cases not run because " + failed + " FAILED: " + ids(group)));
    List<String> others =
        run.results().stream()
            .filter(CaseResult::mustUnproven)
            .filter(r -> !explained.contains(r))
            .map(CaseResult::id)
            .toList();
    if (!others.isEmpty()) {
      lines.add(
          "MUST cases not run: "
              + String.join(", ", others)
              + " -- the server was not shown to be safe for them (see each case's reason).");
    }
    return lines;
  }

  /** NOT RUN results matching {@code which}, grouped by reason, in run order. */
  private static Map<String, List<CaseResult>> group(
      RunResult run, Predicate<CaseResult> which, List<CaseResult> explained) {
    Map<String, List<CaseResult>> groups = new LinkedHashMap<>();
    for (CaseResult r : run.results()) {
      if (r.verdict() == Verdict.NOT_RUN && which.test(r)) {
        String key = dependencyOf(r) != null ? dependencyOf(r) : r.message();
        groups.computeIfAbsent(key, k -> new ArrayList<>()).add(r);
        explained.add(r);
      }
    }
    return groups;
  }

  /** The failed case {@code r} was NOT RUN for, or null. */
  static String dependencyOf(CaseResult r) {
    String m = r.message();
    if (r.verdict() != Verdict.NOT_RUN || !m.startsWith(SuiteRun.DEPENDS_ON)) {
      return null;
    }
    int end = m.indexOf(',', SuiteRun.DEPENDS_ON.length());
    return end < 0 ? null : m.substring(SuiteRun.DEPENDS_ON.length(), end);
  }

  /** "lock cases" when every case of the group is a {@code lock.*} case, else "cases". */
  private static String label(List<CaseResult> group) {
    String first = group.get(0).id();
    String prefix = first.contains(".") ? first.substring(0, first.indexOf('.') + 1) : first;
    boolean shared = group.stream().allMatch(r -> r.id().startsWith(prefix));
    return shared ? prefix.substring(0, prefix.length() - 1) + " cases" : "cases";
  }

  private static String ids(List<CaseResult> group) {
    return String.join(", ", group.stream().map(CaseResult::id).toList());
  }

  /** Counts per level: MUST passed, failed, not run, errors; SHOULD and MAY together. */
  static String counts(RunResult run) {
    Predicate<CaseResult> must = r -> r.level() == Level.MUST;
    return "MUST: "
        + count(run, must, Verdict.PASS)
        + " passed, "
        + count(run, must, Verdict.FAIL)
        + " FAILED, "
        + count(run, must, Verdict.NOT_RUN)
        + " not run, "
        + count(run, must, Verdict.ERROR)
        + " errors; SHOULD/MAY: "
        + count(run, must.negate(), Verdict.PASS)
        + " passed, "
        + count(run, must.negate(), Verdict.FAIL)
        + " not met, "
        + count(run, must.negate(), Verdict.NOT_RUN)
        + " not run, "
        + count(run, must.negate(), Verdict.ERROR)
        + " errors";
  }

  private static long count(RunResult run, Predicate<CaseResult> level, Verdict verdict) {
    return run.results().stream().filter(level).filter(r -> r.verdict() == verdict).count();
  }
}
