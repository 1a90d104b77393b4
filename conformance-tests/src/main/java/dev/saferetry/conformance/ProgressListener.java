package dev.saferetry.conformance;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.engine.reporting.ReportEntry;
import org.junit.platform.engine.support.descriptor.MethodSource;
import org.junit.platform.launcher.TestExecutionListener;
import org.junit.platform.launcher.TestIdentifier;
import org.junit.platform.launcher.TestPlan;

/** Turns JUnit events into case verdicts and prints one progress line per case. Thread-safe. */
final class ProgressListener implements TestExecutionListener {
  private final SuiteConfig config;
  private final PrintStream out;
  private final Map<String, String> evidence = new ConcurrentHashMap<>();
  private final List<CaseResult> results = new ArrayList<>();
  private long total;

  ProgressListener(SuiteConfig config, PrintStream out) {
    this.config = config;
    this.out = out;
  }

  synchronized List<CaseResult> results() {
    return List.copyOf(results);
  }

  @Override
  public void testPlanExecutionStarted(TestPlan plan) {
    total = plan.countTestIdentifiers(TestIdentifier::isTest);
  }

  @Override
  public void reportingEntryPublished(TestIdentifier id, ReportEntry entry) {
    entry
        .getKeyValuePairs()
        .forEach(
            (k, v) -> {
              if (k.equals("evidence")) {
                evidence.put(id.getUniqueId(), v);
              }
            });
  }

  @Override
  public void executionSkipped(TestIdentifier id, String reason) {
    record(id, CaseResult.Verdict.SKIP, reason);
  }

  @Override
  public void executionFinished(TestIdentifier id, TestExecutionResult result) {
    String message = result.getThrowable().map(ProgressListener::describe).orElse("");
    switch (result.getStatus()) {
      case SUCCESSFUL -> record(id, CaseResult.Verdict.PASS, message);
      case ABORTED -> record(id, CaseResult.Verdict.SKIP, message);
      default -> record(id, CaseResult.Verdict.FAIL, message);
    }
  }

  private static String describe(Throwable t) {
    String message = t.getMessage() == null ? t.getClass().getSimpleName() : t.getMessage();
    return message.replaceAll("\\s+", " ").strip();
  }

  private synchronized void record(TestIdentifier id, CaseResult.Verdict verdict, String why) {
    if (!id.isTest() || !(id.getSource().orElse(null) instanceof MethodSource source)) {
      if (verdict == CaseResult.Verdict.FAIL) {
        out.println("ERROR in " + id.getDisplayName() + ": " + why);
      }
      return;
    }
    Case c = ConformanceSuite.lookup(source.getClassName(), source.getMethodName());
    if (c == null) {
      return;
    }
    CaseResult result =
        new CaseResult(
            c.id(),
            config.level(c),
            c.description(),
            verdict,
            evidence.getOrDefault(id.getUniqueId(), ""),
            why);
    results.add(result);
    out.printf(
        "[%2d/%d] %-4s %-6s %-32s %s%n",
        results.size(),
        total,
        verdict,
        result.level(),
        c.id(),
        verdict == CaseResult.Verdict.PASS ? "" : why);
    out.flush();
  }
}
