package dev.saferetry.benchmarks;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.openjdk.jmh.profile.GCProfiler;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;

/**
 * Two benchmarks of one class, measured alternately on a shared machine: each round runs both, one
 * fork each, the order flipped every round (A then B, B then A, ...), with JMH's gc profiler. A
 * load change on the machine hits both sides of a round about equally, so the ratio B/A of each
 * round is the figure; the table gives every round's time and allocation, and the median, lowest
 * and highest ratio. Allocation per call ({@code gc.alloc.rate.norm}) and the CPU time per call
 * ({@link CpuPerCall}: the forked JVM's CPU time over the calls) move little with load; the time
 * per call moves with it.
 *
 * <pre>
 * java -cp saferetry-benchmarks.jar dev.saferetry.benchmarks.PairedRuns typed|starter \
 *     [--rounds 6] [--warmup 3] [--iterations 4] [--time-ms 1000] [--server inproc]
 * </pre>
 *
 * <p>{@code typed}: {@link TypedCallCost} (handWritten is A, typed is B); {@code starter}: {@link
 * StarterCallCost} (handBuilt is A, starter is B). {@code --server inproc}: either pair answered
 * inside OkHttp, no socket. Not thread-safe; one run per process.
 */
public final class PairedRuns {
  private PairedRuns() {}

  /** One side of one round. */
  record Side(String name, double micros, double error, double bytes, double cpu) {}

  /** Runs the pair named by {@code args[0]}; see the class comment. */
  public static void main(String[] args) throws RunnerException {
    if (args.length == 0) {
      throw new IllegalArgumentException("usage: PairedRuns typed|starter [--rounds N] ...");
    }
    Class<?> type;
    String a;
    String b;
    switch (args[0]) {
      case "typed" -> {
        type = TypedCallCost.class;
        a = "handWritten";
        b = "typed";
      }
      case "starter" -> {
        type = StarterCallCost.class;
        a = "handBuilt";
        b = "starter";
      }
      default -> throw new IllegalArgumentException("unknown pair " + args[0]);
    }
    int rounds = 6;
    int warmup = 3;
    int iterations = 4;
    long millis = 1000;
    String server = "http";
    for (int i = 1; i + 1 < args.length; i += 2) {
      if (args[i].equals("--server")) {
        server = args[i + 1];
        continue;
      }
      int v = Integer.parseInt(args[i + 1]);
      switch (args[i]) {
        case "--rounds" -> rounds = v;
        case "--warmup" -> warmup = v;
        case "--iterations" -> iterations = v;
        case "--time-ms" -> millis = v;
        default -> throw new IllegalArgumentException("unknown option " + args[i]);
      }
    }
    List<Side[]> table = new ArrayList<>();
    for (int r = 0; r < rounds; r++) {
      String first = r % 2 == 0 ? a : b;
      String second = r % 2 == 0 ? b : a;
      Side s1 = run(type, first, warmup, iterations, millis, server);
      Side s2 = run(type, second, warmup, iterations, millis, server);
      table.add(first.equals(a) ? new Side[] {s1, s2} : new Side[] {s2, s1});
    }
    System.out.printf(
        Locale.ROOT,
        "%n%s (server %s): %d rounds, order flipped each round; %d cores, Java %s; %d warm-up + %d measured"
            + " iterations of %d ms, 1 fork per side%n",
        type.getSimpleName(),
        server,
        rounds,
        Runtime.getRuntime().availableProcessors(),
        System.getProperty("java.version"),
        warmup,
        iterations,
        millis);
    System.out.printf(
        Locale.ROOT,
        "| round | %s µs/call | %s µs/call | ratio %s/%s | %s B/call | %s B/call | %s CPU µs/call"
            + " | %s CPU µs/call |%n",
        a,
        b,
        b,
        a,
        a,
        b,
        a,
        b);
    List<Double> ratios = new ArrayList<>();
    for (int r = 0; r < table.size(); r++) {
      Side x = table.get(r)[0];
      Side y = table.get(r)[1];
      double ratio = y.micros() / x.micros();
      ratios.add(ratio);
      System.out.printf(
          Locale.ROOT,
          "| %d%s | %.1f ± %.1f | %.1f ± %.1f | %.3f | %.0f | %.0f | %.1f | %.1f |%n",
          r + 1,
          r % 2 == 0 ? " (A first)" : " (B first)",
          x.micros(),
          x.error(),
          y.micros(),
          y.error(),
          ratio,
          x.bytes(),
          y.bytes(),
          x.cpu(),
          y.cpu());
    }
    List<Double> sorted = new ArrayList<>(ratios);
    sorted.sort(null);
    int n = sorted.size();
    double median =
        n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
    System.out.printf(
        Locale.ROOT,
        "ratio %s/%s: median %.3f, lowest %.3f, highest %.3f%n",
        b,
        a,
        median,
        sorted.get(0),
        sorted.get(n - 1));
  }

  private static Side run(
      Class<?> type, String method, int warmup, int iterations, long millis, String server)
      throws RunnerException {
    OptionsBuilder options = new OptionsBuilder();
    options.param("server", server);
    Collection<RunResult> results =
        new Runner(
                options
                    .include(type.getName() + "\\." + method + "$")
                    .forks(1)
                    .warmupIterations(warmup)
                    .warmupTime(TimeValue.milliseconds(millis))
                    .measurementIterations(iterations)
                    .measurementTime(TimeValue.milliseconds(millis))
                    .addProfiler(GCProfiler.class)
                    .addProfiler(CpuPerCall.class)
                    .build())
            .run();
    RunResult result = results.iterator().next();
    Result<?> primary = result.getPrimaryResult();
    double bytes = Double.NaN;
    double cpu = Double.NaN;
    for (Map.Entry<String, Result> e : result.getSecondaryResults().entrySet()) {
      if (e.getKey().endsWith("gc.alloc.rate.norm")) {
        bytes = e.getValue().getScore();
      } else if (e.getKey().endsWith("cpu.per.call")) {
        cpu = e.getValue().getScore();
      }
    }
    return new Side(method, primary.getScore(), primary.getScoreError(), bytes, cpu);
  }
}
