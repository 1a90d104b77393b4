package dev.saferetry.conformance;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

/** Renders the summary table and the Markdown report. Stateless and thread-safe. */
final class Reports {
  private Reports() {}

  static void printSummary(RunResult run, PrintStream out) {
    out.println();
    out.printf("%-32s %-6s %-4s %s%n", "CASE", "LEVEL", "RESULT", "EVIDENCE");
    for (CaseResult r : run.results()) {
      String detail = r.evidence() + (r.message().isEmpty() ? "" : " | " + r.message());
      out.printf("%-32s %-6s %-4s   %s%n", r.id(), r.level(), r.verdict(), detail);
    }
    out.println();
    out.println(counts(run) + (run.mustFailed() ? " -- a MUST case FAILED" : ""));
  }

  static String counts(RunResult run) {
    long pass = count(run, CaseResult.Verdict.PASS);
    long fail = count(run, CaseResult.Verdict.FAIL);
    long skip = count(run, CaseResult.Verdict.SKIP);
    return pass + " passed, " + fail + " failed, " + skip + " skipped";
  }

  private static long count(RunResult run, CaseResult.Verdict verdict) {
    return run.results().stream().filter(r -> r.verdict() == verdict).count();
  }

  static void writeMarkdown(RunResult run, SuiteConfig config, Path file) throws IOException {
    StringBuilder md = new StringBuilder();
    md.append("# SafeRetry conformance report\n\n");
    md.append("- Target: `").append(run.target()).append("`\n");
    md.append("- Profile: `").append(run.profile()).append("`\n");
    md.append("- Result: ")
        .append(counts(run))
        .append(run.mustFailed() ? " — **a MUST case failed**" : " — no MUST failure")
        .append("\n\n");
    md.append("| Case | Level | Result | Description | Evidence |\n");
    md.append("|---|---|---|---|---|\n");
    for (CaseResult r : run.results()) {
      String detail = r.evidence() + (r.message().isEmpty() ? "" : " — " + r.message());
      md.append("| `")
          .append(r.id())
          .append("` | ")
          .append(r.level())
          .append(" | ")
          .append(r.verdict() == CaseResult.Verdict.FAIL ? "**FAIL**" : r.verdict())
          .append(" | ")
          .append(cell(r.description()))
          .append(" | ")
          .append(cell(detail))
          .append(" |\n");
    }
    md.append("\n## Configuration (secrets redacted)\n\n```properties\n");
    for (Map.Entry<String, String> e : config.redacted().entrySet()) {
      md.append(e.getKey()).append('=').append(e.getValue()).append('\n');
    }
    md.append("```\n");
    Files.createDirectories(file.toAbsolutePath().getParent());
    Files.writeString(file, md.toString(), StandardCharsets.UTF_8);
  }

  private static String cell(String text) {
    return text.replace("|", "\\|").replace("\n", " ");
  }
}
