package dev.saferetry.conformance;

import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Runs one contract's preflight and cases against a session, sequentially, turning each case's end
 * into a verdict: normal end PASS, {@link CaseFailure} FAIL, {@link NotRun} NOT_RUN, anything else
 * (I/O error, a hook that stopped answering) ERROR. Confined to the calling thread.
 */
final class SuiteRun {
  /** How the reason of a case NOT RUN because of a failed dependency begins. */
  static final String DEPENDS_ON = "depends on ";

  private final SuiteConfig config;
  private final PrintStream out;

  SuiteRun(SuiteConfig config, PrintStream out) {
    this.config = config;
    this.out = out;
  }

  RunResult run() {
    Instant started = Instant.now();
    Contract contract = Contract.named(config.get("contract"));
    String target =
        config.target() != null
            ? new Redaction(config).url(config.target())
            : contract.gradesEmbeddedReferenceServer() ? "embedded reference server" : "no target";
    out.println(
        "SafeRetry conformance suite "
            + SuiteVersion.get()
            + " -> "
            + target
            + " (profile "
            + config.profile()
            + ")");
    List<CaseResult> results = new ArrayList<>();
    CaseResult preflight;
    try (Session session = new Session(config, contract.gradesEmbeddedReferenceServer())) {
      preflight = preflight(session, contract);
      if (preflight.verdict() == Verdict.PASS) {
        List<CaseSpec> cases = contract.cases();
        for (CaseSpec spec : cases) {
          long start = System.nanoTime();
          // A case built on one that FAILED still runs: it may show a flaw of its own (a second
          // side effect). Only its checks that need the failed case are reported NOT RUN.
          CaseResult r = !selected(spec) ? excluded(spec) : runCase(session, spec, results);
          results.add(r);
          progress(results.size(), cases.size(), r, System.nanoTime() - start);
        }
      }
    }
    return new RunResult(
        SuiteVersion.get(), started, target, config.profile(), preflight, results, null, null);
  }

  private CaseResult preflight(Session session, Contract contract) {
    try (Probe probe = new Probe(session)) {
      try {
        contract.preflight(probe);
        out.println("Preflight: the target answers and every declared hook works");
        return result(
            probe,
            "preflight",
            Level.MUST,
            "The configuration can grade the target",
            Verdict.PASS,
            "");
      } catch (ConfigurationError e) {
        out.println("CONFIGURATION ERROR: " + session.redaction.text(e.getMessage(), 1000));
        return result(
            probe,
            "preflight",
            Level.MUST,
            "The configuration can grade the target",
            Verdict.ERROR,
            e.getMessage());
      }
    }
  }

  private CaseResult runCase(Session session, CaseSpec spec, List<CaseResult> earlier) {
    Level level = config.level(spec.id(), spec.level());
    try (Probe probe = new Probe(session)) {
      Verdict verdict;
      String message = "";
      try {
        probe.effects().begin();
        spec.body().run(probe);
        verdict = Verdict.PASS;
      } catch (CaseFailure e) {
        CaseResult explaining = failed(e.builtOn(), earlier);
        verdict = explaining == null ? Verdict.FAIL : Verdict.NOT_RUN;
        message = explaining == null ? e.getMessage() : explainedBy(explaining, e.getMessage());
      } catch (NotRun e) {
        verdict = Verdict.NOT_RUN;
        message = e.getMessage();
      } catch (HookFailure e) {
        verdict = Verdict.ERROR;
        message = "a declared hook stopped working: " + e.getMessage();
      } catch (UncheckedIOException e) {
        verdict = Verdict.ERROR;
        message = "I/O error: " + e.getCause().getMessage();
      } catch (Exception e) {
        verdict = Verdict.ERROR;
        message = e.getClass().getSimpleName() + ": " + e.getMessage();
      }
      cleanUp(probe);
      return result(probe, spec.id(), level, spec.description(), verdict, message);
    }
  }

  private static void cleanUp(Probe probe) {
    try {
      probe.hooks().resetIfArmed();
    } catch (RuntimeException e) {
      probe.note("fault reset failed: " + e.getMessage());
    }
  }

  private static CaseResult result(
      Probe probe, String id, Level level, String description, Verdict verdict, String message) {
    return new CaseResult(
        id,
        level,
        description,
        verdict,
        probe.session.redaction.text(message, 1000),
        probe.notes(),
        probe.exchanges());
  }

  private boolean selected(CaseSpec spec) {
    Set<String> levels = list("levels");
    Set<String> ids = list("cases");
    boolean levelOk =
        levels.isEmpty() || levels.contains(config.level(spec.id(), spec.level()).name());
    boolean idOk =
        ids.isEmpty()
            || ids.stream()
                .anyMatch(
                    p ->
                        p.endsWith("*")
                            ? spec.id().startsWith(p.substring(0, p.length() - 1))
                            : spec.id().equals(p));
    return levelOk && idOk;
  }

  private Set<String> list(String key) {
    String value = config.get(key);
    return value == null
        ? Set.of()
        : Arrays.stream(value.split(","))
            .map(String::strip)
            .filter(s -> !s.isEmpty())
            .map(s -> key.equals("levels") ? s.toUpperCase(Locale.ROOT) : s)
            .collect(Collectors.toSet());
  }

  private CaseResult excluded(CaseSpec spec) {
    return notRun(spec, "excluded by the cases/levels filter");
  }

  /** The result of case {@code id} if it FAILED earlier in this run, else null. */
  private static CaseResult failed(String id, List<CaseResult> earlier) {
    if (id == null) {
      return null;
    }
    for (CaseResult r : earlier) {
      if (r.id().equals(id) && r.verdict() == Verdict.FAIL) {
        return r;
      }
    }
    return null;
  }

  /**
   * The reason of a check NOT RUN because the case it needs FAILED: its failure would only repeat
   * that one and blame something else.
   */
  static String explainedBy(CaseResult failed, String check) {
    return DEPENDS_ON
        + failed.id()
        + ", which FAILED ("
        + Redaction.cut(failed.message(), 200)
        + "): this case's check needs it to work, and only repeated that failure ("
        + Redaction.cut(check, 300)
        + ")";
  }

  private CaseResult notRun(CaseSpec spec, String reason) {
    return new CaseResult(
        spec.id(),
        config.level(spec.id(), spec.level()),
        spec.description(),
        Verdict.NOT_RUN,
        reason,
        List.of(),
        List.of());
  }

  private void progress(int done, int total, CaseResult r, long nanos) {
    out.printf(
        Locale.ROOT,
        "[%2d/%d] %-7s %-6s %-34s %5.1f s %s%n",
        done,
        total,
        r.verdict(),
        r.level(),
        r.id(),
        nanos / 1e9,
        r.verdict() == Verdict.PASS ? "" : r.message());
    out.flush();
  }
}
