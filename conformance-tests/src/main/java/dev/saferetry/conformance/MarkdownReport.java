package dev.saferetry.conformance;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The Markdown report: suite version, date, target, profile, verdict, the case table, and for every
 * failure, unrun MUST case and error the evidence (the requests sent and the responses seen, cut
 * and redacted). Stateless and thread-safe.
 */
final class MarkdownReport {
  private MarkdownReport() {}

  static void write(RunResult run, SuiteConfig config, Path file) throws IOException {
    StringBuilder md = new StringBuilder("# SafeRetry conformance report\n\n");
    header(md, run);
    table(md, run);
    List<CaseResult> detailed = new ArrayList<>();
    if (run.configurationError()) {
      detailed.add(run.preflight());
    }
    run.results().stream()
        .filter(
            r -> r.verdict() == Verdict.FAIL || r.verdict() == Verdict.ERROR || r.mustUnproven())
        .forEach(detailed::add);
    if (!detailed.isEmpty()) {
      md.append("\n## Evidence\n");
      detailed.forEach(r -> evidence(md, r));
    }
    configuration(md, config);
    Files.createDirectories(file.toAbsolutePath().getParent());
    Files.writeString(file, md.toString(), StandardCharsets.UTF_8);
  }

  private static void header(StringBuilder md, RunResult run) {
    md.append("- Suite version: `").append(run.suiteVersion()).append("`\n");
    md.append("- Date: ").append(run.startedAt()).append('\n');
    md.append("- Target: `").append(run.target()).append("`\n");
    md.append("- Profile: `").append(run.profile()).append("`\n");
    md.append("- Verdict: **")
        .append(run.exitStatus().meaning())
        .append("** (exit ")
        .append(run.exitStatus().code())
        .append(")\n");
    ConsoleReport.verdictLines(run).stream()
        .skip(1)
        .forEach(l -> md.append("- ").append(l).append('\n'));
    md.append("- Counts: ").append(ConsoleReport.counts(run)).append("\n\n");
  }

  private static void table(StringBuilder md, RunResult run) {
    if (run.results().isEmpty()) {
      return;
    }
    md.append("| Case | Level | Result | Description | Evidence |\n|---|---|---|---|---|\n");
    for (CaseResult r : run.results()) {
      md.append("| `")
          .append(r.id())
          .append("` | ")
          .append(r.level())
          .append(" | ")
          .append(r.verdict() == Verdict.FAIL ? "**FAIL**" : r.verdict())
          .append(" | ")
          .append(cell(r.description()))
          .append(" | ")
          .append(cell(Redaction.cut(r.evidence(), 300)))
          .append(" |\n");
    }
  }

  private static void configuration(StringBuilder md, SuiteConfig config) {
    md.append("\n## Configuration (secrets redacted)\n\n```properties\n");
    Redaction redaction = new Redaction(config);
    for (Map.Entry<String, String> e : config.redacted().entrySet()) {
      String value = redaction.text(e.getValue(), 2000).replace("\n", " ");
      md.append(e.getKey()).append('=').append(value).append('\n');
    }
    md.append("```\n");
  }

  private static void evidence(StringBuilder md, CaseResult r) {
    md.append("\n### `")
        .append(r.id())
        .append("` — ")
        .append(r.level())
        .append(' ')
        .append(r.verdict())
        .append("\n\n");
    md.append(r.message()).append("\n\n");
    if (!r.notes().isEmpty()) {
      md.append("Observed: ").append(cell(r.evidence())).append("\n\n");
    }
    for (Exchange e : r.exchanges()) {
      md.append("```http\n# ").append(e.label()).append(" (").append(e.millis()).append(" ms)\n");
      md.append(e.method()).append(' ').append(e.url()).append('\n');
      e.requestHeaders().forEach(h -> md.append(h).append('\n'));
      if (!e.requestBody().isEmpty()) {
        md.append('\n').append(fence(e.requestBody())).append('\n');
      }
      md.append('\n');
      if (e.status() == 0) {
        md.append("# no response: ").append(e.error()).append('\n');
      } else {
        md.append("HTTP ").append(e.status()).append('\n');
        e.responseHeaders().forEach(h -> md.append(h).append('\n'));
        if (!e.responseBody().isEmpty()) {
          md.append('\n').append(fence(e.responseBody())).append('\n');
        }
      }
      md.append("```\n\n");
    }
  }

  private static String fence(String text) {
    return text.replace("```", "`\u200b``");
  }

  private static String cell(String text) {
    return text.replace("|", "\\|").replace("\n", " ");
  }
}
