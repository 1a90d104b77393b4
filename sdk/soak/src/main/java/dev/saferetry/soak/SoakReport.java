package dev.saferetry.soak;

import java.io.PrintStream;
import java.time.Duration;
import java.util.Collections;
import java.util.Locale;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * The figures of one soak run.
 *
 * @param backend the reference server's database, e.g. {@code H2 (in-memory)}
 * @param intents intents in the run
 * @param resolved intents a worker saw succeed
 * @param attemptsReported HTTP attempts the workers reported (calls in flight at a kill are lost)
 * @param postsAtProxy POSTs the proxy saw: every attempt that left a client
 * @param unresolvedCalls calls that ended without a definitive answer and were driven again
 * @param faults POSTs per proxy fault kind ({@code PASS} included)
 * @param kills SIGKILLs of worker processes
 * @param restarts worker starts after the first ones (after kills or exits)
 * @param recoveredPending pending intents found in file stores on restarts and re-driven
 * @param effectsHistogram number of intents per count of server side effects
 * @param duplicates intents with more than one side effect
 * @param lost intents with no side effect
 * @param neverResolved intents no worker saw succeed
 * @param failed intents that got a definitive error
 * @param chargeMismatches intents whose charges count differs from their side-effect count
 * @param latencyMillis p50, p90, p99 and max of the resolving call's latency, in ms
 * @param elapsed the run's duration
 * @param store where the workers keep their intents, e.g. {@code a file store per worker}
 * @param adopted intents of a killed worker's slice that another worker re-drove to success from
 *     the shared JDBC store (0 with stores per worker)
 *     <p>Instances are immutable and thread-safe.
 */
public record SoakReport(
    String backend,
    int intents,
    int resolved,
    long attemptsReported,
    long postsAtProxy,
    long unresolvedCalls,
    Map<FaultKind, Long> faults,
    int kills,
    int restarts,
    long recoveredPending,
    SortedMap<Long, Long> effectsHistogram,
    long duplicates,
    long lost,
    long neverResolved,
    long failed,
    long chargeMismatches,
    double[] latencyMillis,
    Duration elapsed,
    String store,
    long adopted) {

  /** Copies the collections. */
  public SoakReport {
    faults = Map.copyOf(faults);
    effectsHistogram = Collections.unmodifiableSortedMap(new TreeMap<>(effectsHistogram));
    latencyMillis = latencyMillis.clone();
  }

  /** Whether every intent caused exactly one side effect and was seen to succeed. */
  public boolean ok() {
    return duplicates == 0
        && lost == 0
        && neverResolved == 0
        && failed == 0
        && chargeMismatches == 0;
  }

  /** Returns the latency percentiles in ms: p50, p90, p99, max. */
  @Override
  public double[] latencyMillis() {
    return latencyMillis.clone();
  }

  /** Prints the figures. */
  public void print(PrintStream out) {
    out.printf(Locale.ROOT, "%nChaos soak against the reference server on %s%n", backend);
    out.printf(Locale.ROOT, "  intents kept in      %s%n", store);
    out.printf(
        Locale.ROOT,
        "  intents              %d (resolved %d) in %.1f s%n",
        intents,
        resolved,
        elapsed.toMillis() / 1e3);
    out.printf(
        Locale.ROOT,
        "  attempts             %d reported by workers, %d POSTs at the proxy,"
            + " %d calls ended unresolved and were re-driven%n",
        attemptsReported,
        postsAtProxy,
        unresolvedCalls);
    StringBuilder f = new StringBuilder();
    for (FaultKind k : FaultKind.values()) {
      f.append(
          String.format(
              Locale.ROOT,
              "%s=%d ",
              k.name().toLowerCase(Locale.ROOT),
              faults.getOrDefault(k, 0L)));
    }
    out.printf(Locale.ROOT, "  faults by kind       %s%n", f.toString().trim());
    out.printf(
        Locale.ROOT,
        "  kills (SIGKILL)      %d, restarts %d, pending intents recovered"
            + " on restarts %d, re-driven by another worker %d%n",
        kills,
        restarts,
        recoveredPending,
        adopted);
    out.printf(Locale.ROOT, "  side effects/intent  %s%n", effectsHistogram);
    out.printf(Locale.ROOT, "  duplicates           %d%n", duplicates);
    out.printf(Locale.ROOT, "  lost (0 effects)     %d%n", lost);
    out.printf(
        Locale.ROOT,
        "  never resolved       %d (definitive failures %d, charge/effect" + " mismatches %d)%n",
        neverResolved,
        failed,
        chargeMismatches);
    out.printf(
        Locale.ROOT,
        "  latency ms           p50 %.1f  p90 %.1f  p99 %.1f  max %.1f"
            + " (resolving call, retries included)%n",
        latencyMillis[0],
        latencyMillis[1],
        latencyMillis[2],
        latencyMillis[3]);
    out.println(
        ok()
            ? "RESULT: OK — every intent caused exactly one side effect"
            : "RESULT: FAILED — duplicates or lost intents");
  }
}
