package dev.saferetry.benchmarks;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;

/**
 * Runs the JMH benchmarks with short but honest settings (one fork, warm-up iterations, then
 * measured iterations whose error JMH reports) and prints each group's ratio table: the SDK path
 * next to its bare baseline, measured in the same run. JMH runs one method after the other, so a
 * machine whose load changes meanwhile would bias a ratio: each group runs in several rounds, and
 * the tables give the median of the rounds' ratios and every round's value.
 *
 * <pre>
 * java -jar sdk/benchmarks/target/saferetry-benchmarks.jar [overhead] [keystore] [jdbc] [options]
 * </pre>
 *
 * <p>Groups (default {@code overhead keystore}): {@code overhead} ({@link CallOverhead}), {@code
 * keystore} ({@link FileKeyStoreCost}), {@code jdbc} ({@link JdbcKeyStoreCost}, needs PostgreSQL).
 * Options: {@code --warmup N} iterations (default 3), {@code --iterations N} measured (default 5),
 * {@code --time-ms N} per iteration (default 1000), {@code --forks N} (default 1), {@code --rounds
 * N} (default 3), {@code --server inproc} (the overhead group without a socket), {@code --dir DIR}
 * (where the stores write, default {@code target/bench}; never a tmpfs). Not thread-safe; one run
 * per process.
 */
public final class Benchmarks {
  /** The SDK's overhead goal over bare OkHttp: elapsed time per call, one caller. */
  static final double SEQUENTIAL_TARGET = 1.03;

  /** The same at 8 and 32 callers. */
  static final double CONCURRENT_TARGET = 1.05;

  /** The file store's goal over a raw append + fdatasync, one caller. */
  static final double FILE_STORE_TARGET = 1.15;

  private static final int[] CALLERS = {1, 8, 32};

  private final Settings settings;
  private final PrintStream out;

  /**
   * How long JMH measures.
   *
   * @param warmup warm-up iterations per benchmark
   * @param iterations measured iterations per benchmark
   * @param millis length of one iteration
   * @param forks JVM forks per benchmark (0: in this JVM, for a smoke test only)
   * @param rounds how often each group runs; the tables give the medians of the rounds' ratios
   * @param server {@code http} or {@code inproc}
   * @param dir where the stores write
   */
  record Settings(
      int warmup, int iterations, long millis, int forks, int rounds, String server, String dir) {}

  Benchmarks(Settings settings, PrintStream out) {
    this.settings = settings;
    this.out = out;
  }

  /** Runs the groups named in {@code args}; see the class comment. */
  public static void main(String[] args) throws RunnerException {
    List<String> groups = new ArrayList<>();
    Map<String, String> opts = new LinkedHashMap<>();
    for (int i = 0; i < args.length; i++) {
      if (args[i].startsWith("--") && i + 1 < args.length) {
        opts.put(args[i].substring(2), args[++i]);
      } else {
        groups.add(args[i]);
      }
    }
    if (groups.isEmpty()) {
      groups = List.of("overhead", "keystore");
    }
    Settings settings =
        new Settings(
            Integer.parseInt(opts.getOrDefault("warmup", "3")),
            Integer.parseInt(opts.getOrDefault("iterations", "5")),
            Long.parseLong(opts.getOrDefault("time-ms", "1000")),
            Integer.parseInt(opts.getOrDefault("forks", "1")),
            Integer.parseInt(opts.getOrDefault("rounds", "3")),
            opts.getOrDefault("server", "http"),
            opts.getOrDefault("dir", "target/bench"));
    Benchmarks benchmarks = new Benchmarks(settings, System.out);
    List<Runnable> tables = new ArrayList<>();
    for (String group : groups) {
      switch (group) {
        case "overhead" -> tables.add(benchmarks.overhead());
        case "keystore" -> tables.add(benchmarks.keyStore());
        case "jdbc" -> tables.add(benchmarks.jdbc());
        default -> throw new IllegalArgumentException("unknown group " + group);
      }
    }
    System.out.printf(
        Locale.ROOT,
        "%nSafeRetry benchmarks: %d cores, Java %s, %s %s; %d fork(s), %d warm-up and %d measured"
            + " iterations of %d ms, %d rounds%n",
        Runtime.getRuntime().availableProcessors(),
        System.getProperty("java.version"),
        System.getProperty("os.name"),
        System.getProperty("os.arch"),
        settings.forks(),
        settings.warmup(),
        settings.iterations(),
        settings.millis(),
        settings.rounds());
    tables.forEach(Runnable::run);
  }

  /** Options for one benchmark class at one caller count. */
  ChainedOptionsBuilder options(Class<?> benchmark, String methods, int threads) {
    return new OptionsBuilder()
        .include(benchmark.getName() + "\\.(" + methods + ")$")
        .warmupIterations(settings.warmup())
        .warmupTime(TimeValue.milliseconds(settings.millis()))
        .measurementIterations(settings.iterations())
        .measurementTime(TimeValue.milliseconds(settings.millis()))
        .forks(settings.forks())
        .threads(threads)
        .shouldFailOnError(true)
        .jvmArgsAppend("-Dbench.dir=" + settings.dir());
  }

  /** The scores of one run by method name (the part after the last dot). */
  static Map<String, Result<?>> byMethod(Collection<RunResult> results) {
    Map<String, Result<?>> scores = new LinkedHashMap<>();
    for (RunResult r : results) {
      String name = r.getParams().getBenchmark();
      scores.put(name.substring(name.lastIndexOf('.') + 1), r.getPrimaryResult());
    }
    return scores;
  }

  /** One JMH run of {@code methods} of {@code benchmark}; the scores by method. */
  Map<String, Result<?>> run(Class<?> benchmark, String methods, int threads, String... params)
      throws RunnerException {
    ChainedOptionsBuilder options = options(benchmark, methods, threads);
    for (int i = 0; i + 1 < params.length; i += 2) {
      options.param(params[i], params[i + 1]);
    }
    return byMethod(new Runner(options.build()).run());
  }

  /** The median of {@code values} over the rounds. */
  static double median(List<Double> values) {
    double[] sorted = values.stream().mapToDouble(Double::doubleValue).sorted().toArray();
    return sorted[sorted.length / 2];
  }

  /** The per-round values, e.g. {@code 1.02 0.98 1.10}, for the table's last column. */
  static String rounds(List<Double> values) {
    StringBuilder out = new StringBuilder();
    for (double v : values) {
      out.append(out.length() == 0 ? "" : " ").append(String.format(Locale.ROOT, "%.2f", v));
    }
    return out.toString();
  }

  /** Runs {@link CallOverhead} at 1, 8 and 32 callers, round after round; returns its table. */
  Runnable overhead() throws RunnerException {
    List<Map<Integer, Map<String, Result<?>>>> rounds = new ArrayList<>();
    for (int round = 0; round < settings.rounds(); round++) {
      Map<Integer, Map<String, Result<?>>> run = new LinkedHashMap<>();
      for (int threads : CALLERS) {
        run.put(
            threads,
            run(
                CallOverhead.class,
                "bare|sdkInMemory|sdkFileStore|sdkForm",
                threads,
                "server",
                settings.server()));
      }
      rounds.add(run);
    }
    return () -> printOverhead(rounds);
  }

  private void printOverhead(List<Map<Integer, Map<String, Result<?>>>> rounds) {
    out.printf(
        Locale.ROOT,
        "%nCall overhead (%s), medians of %d rounds: elapsed µs per call = mean sampled latency"
            + " / callers%n",
        settings.server().equals("inproc") ? "answers in-process, no socket" : "loopback server",
        rounds.size());
    out.println(
        "| callers | a: bare µs/call | b/a in-memory | b/a p50 latency | d/a form | d/b form vs"
            + " JSON | c/a file store | target for b/a | b/a per round |");
    out.println("|---:|---:|---:|---:|---:|---:|---:|---|---|");
    for (int threads : CALLERS) {
      List<Double> bare = new ArrayList<>();
      List<Double> ba = new ArrayList<>();
      List<Double> p50 = new ArrayList<>();
      List<Double> da = new ArrayList<>();
      List<Double> db = new ArrayList<>();
      List<Double> ca = new ArrayList<>();
      for (Map<Integer, Map<String, Result<?>>> round : rounds) {
        Map<String, Result<?>> r = round.get(threads);
        double a = r.get("bare").getScore();
        double b = r.get("sdkInMemory").getScore();
        double c = r.get("sdkFileStore").getScore();
        double d = r.get("sdkForm").getScore();
        bare.add(a / threads);
        ba.add(b / a);
        p50.add(
            r.get("sdkInMemory").getStatistics().getPercentile(50)
                / r.get("bare").getStatistics().getPercentile(50));
        da.add(d / a);
        db.add(d / b);
        ca.add(c / a);
      }
      double target = threads == 1 ? SEQUENTIAL_TARGET : CONCURRENT_TARGET;
      out.printf(
          Locale.ROOT,
          "| %d | %.1f | %.3f | %.3f | %.3f | %.3f | %.3f | ≤ %.2f (%s) | %s |%n",
          threads,
          median(bare),
          median(ba),
          median(p50),
          median(da),
          median(db),
          median(ca),
          target,
          median(ba) <= target ? "met" : "not met",
          rounds(ba));
    }
  }

  /** Runs {@link FileKeyStoreCost}, round after round; returns the printer of its tables. */
  Runnable keyStore() throws RunnerException {
    List<Map<String, Double>> rounds = new ArrayList<>();
    for (int round = 0; round < settings.rounds(); round++) {
      Map<String, Result<?>> single =
          run(FileKeyStoreCost.class, "store|rawAppend|rawOverwrite", 1);
      Map<String, Double> scores = new LinkedHashMap<>();
      single.forEach((method, result) -> scores.put(method, result.getScore()));
      scores.put("1 / 0", single.get("store").getScore());
      for (int threads : new int[] {8, 32}) {
        scores.put(threads + " / 0", storeScore(threads, 0));
      }
      scores.put("32 / 200 µs", storeScore(32, 200));
      rounds.add(scores);
    }
    return () -> printKeyStore(rounds);
  }

  private double storeScore(int threads, int windowMicros) throws RunnerException {
    return run(FileKeyStoreCost.class, "store", threads, "groupCommitMicros", "" + windowMicros)
        .get("store")
        .getScore();
  }

  private static List<Double> each(List<Map<String, Double>> rounds, String key) {
    return rounds.stream().map(r -> r.get(key)).toList();
  }

  private void printKeyStore(List<Map<String, Double>> rounds) {
    List<Double> vsAppend = new ArrayList<>();
    List<Double> vsOverwrite = new ArrayList<>();
    for (Map<String, Double> r : rounds) {
      vsAppend.add(r.get("rawAppend") / r.get("store")); // time ratio: inverse of throughput
      vsOverwrite.add(r.get("rawOverwrite") / r.get("store"));
    }
    double store = 1e6 / median(each(rounds, "store"));
    out.printf(
        Locale.ROOT,
        "%nFile key store in %s, one caller, begin + complete, medians of %d rounds%n",
        settings.dir(),
        rounds.size());
    out.println("| | µs per intent | FileKeyStore vs it | target | per round |");
    out.println("|---|---:|---:|---|---|");
    out.printf(
        Locale.ROOT,
        "| raw append + fdatasync | %.1f | %.2f× | ≤ %.2f× (%s) | %s |%n",
        1e6 / median(each(rounds, "rawAppend")),
        median(vsAppend),
        FILE_STORE_TARGET,
        median(vsAppend) <= FILE_STORE_TARGET ? "met" : "not met",
        rounds(vsAppend));
    out.printf(
        Locale.ROOT,
        "| raw overwrite of preallocated space + fdatasync | %.1f | %.2f× | | %s |%n",
        1e6 / median(each(rounds, "rawOverwrite")),
        median(vsOverwrite),
        rounds(vsOverwrite));
    out.printf(Locale.ROOT, "| FileKeyStore | %.1f | | | |%n", store);
    out.println();
    out.println("| callers / group-commit window | intents/s | speed-up vs 1 caller | per round |");
    out.println("|---|---:|---:|---|");
    for (String row : List.of("1 / 0", "8 / 0", "32 / 0", "32 / 200 µs")) {
      List<Double> speedUp = rounds.stream().map(r -> r.get(row) / r.get("1 / 0")).toList();
      out.printf(
          Locale.ROOT,
          "| %s | %,.0f | %.1f× | %s |%n",
          row,
          median(each(rounds, row)),
          median(speedUp),
          rounds(speedUp));
    }
  }

  /** Runs {@link JdbcKeyStoreCost} at 1, 8 and 32 callers, round after round; its table. */
  Runnable jdbc() throws RunnerException {
    List<Map<Integer, Map<String, Result<?>>>> rounds = new ArrayList<>();
    for (int round = 0; round < settings.rounds(); round++) {
      Map<Integer, Map<String, Result<?>>> run = new LinkedHashMap<>();
      for (int threads : CALLERS) {
        run.put(threads, run(JdbcKeyStoreCost.class, "rawInsert|jdbcStore|fileStore", threads));
      }
      rounds.add(run);
    }
    return () -> printJdbc(rounds);
  }

  private void printJdbc(List<Map<Integer, Map<String, Result<?>>>> rounds) {
    out.printf(
        Locale.ROOT,
        "%nJDBC key store on %s, begin + complete, medians of %d rounds%n",
        JdbcKeyStoreCost.url(),
        rounds.size());
    out.println(
        "| callers | raw INSERT/s | JdbcKeyStore intents/s | JdbcKeyStore vs raw INSERT (time)"
            + " | speed-up vs 1 caller | FileKeyStore intents/s | speed-up vs 1 caller |");
    out.println("|---:|---:|---:|---:|---:|---:|---:|");
    for (int threads : CALLERS) {
      List<Double> raw = new ArrayList<>();
      List<Double> jdbc = new ArrayList<>();
      List<Double> file = new ArrayList<>();
      List<Double> vsRaw = new ArrayList<>();
      List<Double> jdbcUp = new ArrayList<>();
      List<Double> fileUp = new ArrayList<>();
      for (Map<Integer, Map<String, Result<?>>> round : rounds) {
        Map<String, Result<?>> r = round.get(threads);
        Map<String, Result<?>> one = round.get(1);
        raw.add(r.get("rawInsert").getScore());
        jdbc.add(r.get("jdbcStore").getScore());
        file.add(r.get("fileStore").getScore());
        vsRaw.add(r.get("rawInsert").getScore() / r.get("jdbcStore").getScore());
        jdbcUp.add(r.get("jdbcStore").getScore() / one.get("jdbcStore").getScore());
        fileUp.add(r.get("fileStore").getScore() / one.get("fileStore").getScore());
      }
      String target =
          threads == 32 ? median(jdbcUp) >= 5 ? " (≥ 5×: met)" : " (≥ 5×: not met)" : "";
      out.printf(
          Locale.ROOT,
          "| %d | %,.0f | %,.0f | %.2f× | %.1f×%s | %,.0f | %.1f× |%n",
          threads,
          median(raw),
          median(jdbc),
          median(vsRaw),
          median(jdbcUp),
          target,
          median(file),
          median(fileUp));
    }
  }
}
