package dev.saferetry.conformance;

import java.io.PrintStream;
import java.util.List;
import java.util.Locale;

/** The summary table and verdict printed after a run. Stateless and thread-safe. */
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

  /** Counts, then the verdict, then the unproven MUST cases by name. */
  static List<String> verdictLines(RunResult run) {
    ExitStatus status = run.exitStatus();
    String head = counts(run) + " -- " + status.meaning() + " (exit " + status.code() + ")";
    if (run.configurationError()) {
      return List.of(head, "Configuration error: " + run.preflight().message());
    }
    List<String> unproven = run.mustUnproven();
    if (unproven.isEmpty()) {
      return List.of(head);
    }
    return List.of(
        head,
        "MUST cases not run: "
            + String.join(", ", unproven)
            + " -- the server was not shown to be safe for them (see each case's reason).");
  }

  static String counts(RunResult run) {
    return count(run, Verdict.PASS)
        + " passed, "
        + count(run, Verdict.FAIL)
        + " failed, "
        + count(run, Verdict.NOT_RUN)
        + " not run, "
        + count(run, Verdict.ERROR)
        + " errors";
  }

  private static long count(RunResult run, Verdict verdict) {
    return run.results().stream().filter(r -> r.verdict() == verdict).count();
  }
}
