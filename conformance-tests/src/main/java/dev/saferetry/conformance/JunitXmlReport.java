package dev.saferetry.conformance;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

/**
 * The JUnit XML report (the Ant/Surefire format CI servers read): one {@code testcase} per case,
 * named by its id, and a last one, {@code verdict}, that says what the exit status says. Only a
 * failed MUST case is a {@code failure} (and a MUST case broken off by an infrastructure problem an
 * {@code error}); SHOULD and MAY failures and cases that did not run are {@code skipped} with their
 * level and reason. The {@code verdict} case passes only with exit status 0: it is a {@code
 * failure} when a MUST case failed or MUST cases did not run, and an {@code error} when the run
 * could not grade the server — so a CI that reads only the counts never shows an unproven server as
 * green. Every case carries its level and verdict as properties. Stateless and thread-safe.
 */
final class JunitXmlReport {
  private JunitXmlReport() {}

  static void write(RunResult run, Path file) throws IOException {
    StringBuilder x = new StringBuilder("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    suite(x, run);
    if (run.configurationError()) {
      x.append("  <testcase name=\"preflight\" classname=\"saferetry-conformance\">\n");
      x.append("    <error message=\"")
          .append(esc(run.preflight().message()))
          .append("\">")
          .append(esc(details(run.preflight())))
          .append("</error>\n  </testcase>\n");
    }
    run.results().forEach(r -> testcase(x, r));
    verdict(x, run);
    x.append("</testsuite>\n");
    Files.createDirectories(file.toAbsolutePath().getParent());
    Files.writeString(file, x.toString(), StandardCharsets.UTF_8);
  }

  /** The opening {@code testsuite} element with its counts and the run's properties. */
  private static void suite(StringBuilder x, RunResult run) {
    ExitStatus status = run.exitStatus();
    long verdictFails =
        status == ExitStatus.MUST_FAILED || status == ExitStatus.MUST_NOT_RUN ? 1 : 0;
    long verdictErrs = status == ExitStatus.CONFIGURATION_ERROR ? 1 : 0;
    long failures = run.results().stream().filter(CaseResult::mustFailed).count() + verdictFails;
    long preflight = run.configurationError() ? 1 : 0;
    long errors =
        preflight
            + verdictErrs
            + run.results().stream()
                .filter(r -> r.level() == Level.MUST && r.verdict() == Verdict.ERROR)
                .count();
    long tests = run.results().size() + preflight + 1;
    long passed =
        run.results().stream().filter(r -> r.verdict() == Verdict.PASS).count()
            + (status == ExitStatus.PASSED ? 1 : 0);
    x.append(
        String.format(
            Locale.ROOT,
            "<testsuite name=\"saferetry-conformance\" tests=\"%d\" failures=\"%d\""
                + " errors=\"%d\" skipped=\"%d\" timestamp=\"%s\">%n",
            tests,
            failures,
            errors,
            tests - failures - errors - passed,
            run.startedAt()));
    x.append("  <properties>\n");
    property(x, "    ", "suite.version", run.suiteVersion());
    property(x, "    ", "target", run.target());
    property(x, "    ", "profile", run.profile());
    property(x, "    ", "verdict", status.meaning());
    property(x, "    ", "exit.status", Integer.toString(status.code()));
    property(x, "    ", "summary", ConsoleReport.counts(run));
    x.append("  </properties>\n");
  }

  /** The last test case: passes exactly when the exit status is 0, and says why not. */
  private static void verdict(StringBuilder x, RunResult run) {
    ExitStatus status = run.exitStatus();
    x.append("  <testcase name=\"verdict\" classname=\"saferetry-conformance\">\n");
    x.append("    <properties>\n");
    property(x, "      ", "exit.status", Integer.toString(status.code()));
    x.append("    </properties>\n");
    if (status != ExitStatus.PASSED) {
      String element = status == ExitStatus.CONFIGURATION_ERROR ? "error" : "failure";
      x.append("    <")
          .append(element)
          .append(" message=\"")
          .append(esc(status.meaning() + " (exit " + status.code() + ")"))
          .append("\">")
          .append(esc(String.join("\n", ConsoleReport.verdictLines(run))))
          .append("</")
          .append(element)
          .append(">\n");
    }
    x.append("  </testcase>\n");
  }

  private static void testcase(StringBuilder x, CaseResult r) {
    x.append("  <testcase name=\"")
        .append(esc(r.id()))
        .append("\" classname=\"saferetry-conformance\">\n");
    x.append("    <properties>\n");
    property(x, "      ", "level", r.level().name());
    property(x, "      ", "verdict", r.verdict().name());
    property(x, "      ", "description", r.description());
    x.append("    </properties>\n");
    if (r.mustFailed()) {
      x.append("    <failure message=\"")
          .append(esc(r.message()))
          .append("\">")
          .append(esc(details(r)))
          .append("</failure>\n");
    } else if (r.level() == Level.MUST && r.verdict() == Verdict.ERROR) {
      x.append("    <error message=\"")
          .append(esc(r.message()))
          .append("\">")
          .append(esc(details(r)))
          .append("</error>\n");
    } else if (r.verdict() != Verdict.PASS) {
      String what =
          r.verdict() == Verdict.FAIL
              ? r.level() + " not met: "
              : r.level() + " " + r.verdict() + ": ";
      String unproven =
          r.mustUnproven()
              ? " (the server was not shown to be safe for it: see the verdict case)"
              : "";
      x.append("    <skipped message=\"")
          .append(esc(what + r.message() + unproven))
          .append("\"/>\n");
    }
    if (!r.notes().isEmpty()) {
      x.append("    <system-out>").append(esc(r.evidence())).append("</system-out>\n");
    }
    x.append("  </testcase>\n");
  }

  private static String details(CaseResult r) {
    StringBuilder b = new StringBuilder(r.message()).append('\n');
    r.exchanges().forEach(e -> b.append(e.summary()).append('\n'));
    return b.toString();
  }

  private static void property(StringBuilder x, String indent, String name, String value) {
    x.append(indent)
        .append("<property name=\"")
        .append(esc(name))
        .append("\" value=\"")
        .append(esc(value))
        .append("\"/>\n");
  }

  /** Escapes for XML text and attributes, dropping characters XML 1.0 cannot carry. */
  static String esc(String s) {
    StringBuilder b = new StringBuilder(s.length());
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      switch (c) {
        case '<' -> b.append("&lt;");
        case '>' -> b.append("&gt;");
        case '&' -> b.append("&amp;");
        case '"' -> b.append("&quot;");
        case '\n' -> b.append("&#10;");
        default -> {
          boolean legal =
              c == '\t'
                  || c == '\r'
                  || (c >= 0x20 && c <= 0xD7FF)
                  || (c >= 0xE000 && c <= 0xFFFD)
                  || Character.isSurrogate(c) && paired(s, i);
          b.append(legal ? c : '?');
        }
      }
    }
    return b.toString();
  }

  private static boolean paired(String s, int i) {
    return Character.isHighSurrogate(s.charAt(i))
        ? i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1))
        : i > 0 && Character.isHighSurrogate(s.charAt(i - 1));
  }
}
