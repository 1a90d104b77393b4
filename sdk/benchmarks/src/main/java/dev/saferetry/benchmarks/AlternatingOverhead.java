package dev.saferetry.benchmarks;

import dev.saferetry.codec.BodyCodec;
import dev.saferetry.filestore.FileKeyStore;
import dev.saferetry.idempotency.KeyStore;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.ToDoubleFunction;
import okhttp3.ConnectionPool;
import okhttp3.OkHttpClient;

/**
 * The hand-written overhead harness of the SDK before its 1.0 redesign, on the current API: JMH's
 * {@link CallOverhead} runs each method in a JVM of its own one after the other, this one
 * alternates the modes in slices of calls in one JVM, so that both harnesses can be run against the
 * same SDK and their figures told apart. Measures what the SDK costs on top of a hand-written call:
 * the same sequence of charge POSTs against one loopback server returning a fixed small JSON
 * answer, made (a) with bare OkHttp and Jackson, (b) through the SDK with the in-memory key store,
 * (c) through the SDK with the file key store and (d) as (b) with form-encoded bodies (Stripe's
 * format) instead of JSON — sequentially and with 8 and 32 concurrent callers. Form encoding must
 * cost no more per call than JSON: the last line prints d/b. The modes alternate in slices of calls
 * within each round, and the median round is reported with the ratios b/a and c/a of elapsed time
 * per call and of median latency.
 *
 * <pre>
 * java -cp sdk/benchmarks/target/saferetry-benchmarks.jar dev.saferetry.benchmarks.AlternatingOverhead \
 *   --calls 6000 --warmup 4000 --rounds 3 --modes ab
 * </pre>
 *
 * <p>Options: {@code --calls N} per run (default 10000), {@code --warmup N} calls per mode before
 * measuring (default 5000), {@code --rounds N} (default 3), {@code --concurrency list} (default
 * {@code 1,8,32}), {@code --slice N} calls per mode before the next mode runs (default 1000),
 * {@code --server-threads N} (default 32), {@code --modes} any of {@code abcd} (default {@code
 * abcd}; bare OkHttp always runs, it is the baseline), {@code --server inproc} to answer inside
 * OkHttp without a socket, which isolates the client's own CPU work (default {@code http}: the
 * loopback server).
 */
public final class AlternatingOverhead {
  private AlternatingOverhead() {}

  /** Runs the benchmark and prints the table; see the class comment for the options. */
  public static void main(String[] args) throws Exception {
    Map<String, String> opts = new LinkedHashMap<>();
    for (int i = 0; i + 1 < args.length; i += 2) {
      if (!args[i].startsWith("--")) {
        throw new IllegalArgumentException("expected --option value, got " + args[i]);
      }
      opts.put(args[i].substring(2), args[i + 1]);
    }
    int calls = Integer.parseInt(opts.getOrDefault("calls", "10000"));
    int warmup = Integer.parseInt(opts.getOrDefault("warmup", "5000"));
    int rounds = Integer.parseInt(opts.getOrDefault("rounds", "3"));
    int slice = Integer.parseInt(opts.getOrDefault("slice", "1000"));
    int serverThreads = Integer.parseInt(opts.getOrDefault("server-threads", "32"));
    int[] levels =
        Arrays.stream(opts.getOrDefault("concurrency", "1,8,32").split(","))
            .mapToInt(Integer::parseInt)
            .toArray();
    int maxLevel = Arrays.stream(levels).max().orElse(1);
    boolean inProcess = "inproc".equals(opts.getOrDefault("server", "http"));

    System.out.printf(
        Locale.ROOT,
        "SafeRetry overhead benchmark: %d calls per run, %d rounds, "
            + "concurrency %s, %s, %d cores, Java %s, %s %s%n",
        calls,
        rounds,
        Arrays.toString(levels),
        inProcess ? "answers in-process (no socket)" : "loopback HTTP server",
        Runtime.getRuntime().availableProcessors(),
        System.getProperty("java.version"),
        System.getProperty("os.name"),
        System.getProperty("os.arch"));
    Path dir = Files.createTempDirectory("saferetry-bench");
    try (FixedResponseServer server = FixedResponseServer.start(serverThreads);
        LoadRunner runner = new LoadRunner(maxLevel)) {
      OkHttpClient.Builder builder =
          new OkHttpClient.Builder()
              .connectionPool(new ConnectionPool(maxLevel * 2, 5, TimeUnit.MINUTES))
              .connectTimeout(10, TimeUnit.SECONDS)
              .readTimeout(30, TimeUnit.SECONDS)
              .writeTimeout(30, TimeUnit.SECONDS);
      if (inProcess) {
        builder.addInterceptor(new InProcessAnswer());
      }
      OkHttpClient base = builder.build();
      String modes = opts.getOrDefault("modes", "abcd");
      List<Caller> callers = new ArrayList<>();
      callers.add(new BareCaller(base, server.baseUrl()));
      if (modes.contains("b")) {
        callers.add(
            new SdkCaller("b SDK, in-memory store", base, server.baseUrl(), KeyStore.inMemory()));
      }
      if (modes.contains("d")) {
        callers.add(
            new SdkCaller(
                "d SDK, form, in-memory",
                base,
                server.baseUrl(),
                KeyStore.inMemory(),
                BodyCodec.form()));
      }
      if (modes.contains("c")) {
        callers.add(
            new SdkCaller("c SDK, file store", base, server.baseUrl(), FileKeyStore.open(dir)));
      }
      try {
        Results results = measure(runner, callers, calls, warmup, slice, rounds, levels);
        results.print(System.out, levels);
      } finally {
        for (Caller c : callers) {
          c.close();
        }
        base.connectionPool().evictAll();
      }
    } finally {
      Scratch.delete(dir);
    }
  }

  private static Results measure(
      LoadRunner runner,
      List<Caller> callers,
      int calls,
      int warmup,
      int slice,
      int rounds,
      int[] levels)
      throws Exception {
    int warmLevel = Math.min(8, Arrays.stream(levels).max().orElse(1));
    for (Caller c : callers) {
      runner.run(c, "warmup-" + c.name().charAt(0), warmup, warmLevel); // JIT, pools, store
    }
    Results results = new Results(callers);
    int slices = Math.max(1, calls / Math.max(1, slice));
    for (int round = 0; round < rounds; round++) {
      for (int level : levels) {
        Measurement[] sums = new Measurement[callers.size()];
        long[] syncs = new long[callers.size()];
        // Modes alternate in slices, so a noisy moment on a shared machine hits all of them.
        for (int part = 0; part < slices; part++) {
          for (int k = 0; k < callers.size(); k++) {
            int index = (k + part + round) % callers.size();
            Caller c = callers.get(index);
            String runId = "r" + round + "-c" + level + "-p" + part + "-" + c.name().charAt(0);
            long before = fsyncs(c);
            Measurement m = runner.run(c, runId, calls / slices, level);
            syncs[index] += before < 0 ? 0 : fsyncs(c) - before;
            sums[index] = sums[index] == null ? m : sums[index].plus(m);
          }
        }
        for (int k = 0; k < callers.size(); k++) {
          Caller c = callers.get(k);
          results.add(c, level, sums[k], fsyncs(c) < 0 ? -1 : syncs[k]);
        }
      }
      System.out.printf(Locale.ROOT, "round %d of %d done%n", round + 1, rounds);
    }
    return results;
  }

  /** Returns the fsyncs of the caller's file store so far, or -1 if it has no file store. */
  private static long fsyncs(Caller caller) {
    if (!(caller instanceof SdkCaller sdk) || !(sdk.store() instanceof FileKeyStore store)) {
      return -1;
    }
    return store.syncCount();
  }

  /** The measurements per caller and concurrency, printed as medians over rounds and ratios. */
  private static final class Results {
    private final List<Caller> callers;
    private final Map<String, List<Measurement>> runs = new LinkedHashMap<>();
    private final Map<String, Long> syncs = new LinkedHashMap<>();

    Results(List<Caller> callers) {
      this.callers = callers;
    }

    void add(Caller c, int level, Measurement m, long fsyncs) {
      runs.computeIfAbsent(c.name() + "/" + level, k -> new ArrayList<>()).add(m);
      syncs.merge(c.name() + "/" + level, fsyncs, (x, y) -> x < 0 || y < 0 ? -1 : x + y);
    }

    private Caller byMode(char mode) {
      return callers.stream().filter(c -> c.name().charAt(0) == mode).findFirst().orElse(null);
    }

    private double median(Caller c, int level, ToDoubleFunction<Measurement> metric) {
      double[] v = runs.get(c.name() + "/" + level).stream().mapToDouble(metric).sorted().toArray();
      return v[v.length / 2];
    }

    void print(PrintStream out, int[] levels) {
      out.printf(
          Locale.ROOT,
          "%n%-24s %4s %8s %8s %6s %8s %6s %8s %7s %6s %8s%n",
          "mode",
          "conc",
          "calls/s",
          "µs/call",
          "ratio",
          "p50 µs",
          "ratio",
          "p99 µs",
          "cpu µs",
          "KiB",
          "fsyncs");
      for (int level : levels) {
        Caller bare = callers.get(0);
        double wallA = median(bare, level, Measurement::wallMicrosPerCall);
        double p50A = median(bare, level, m -> m.percentileMicros(0.5));
        for (Caller c : callers) {
          double wall = median(c, level, Measurement::wallMicrosPerCall);
          double p50 = median(c, level, m -> m.percentileMicros(0.5));
          List<Measurement> all = runs.get(c.name() + "/" + level);
          long calls = all.stream().mapToLong(Measurement::calls).sum();
          long fsyncs = syncs.get(c.name() + "/" + level);
          out.printf(
              Locale.ROOT,
              "%-24s %4d %8.0f %8.1f %6.3f %8.1f %6.3f %8.1f %7.1f %6.1f %8s%n",
              c.name(),
              level,
              1e6 / wall,
              wall,
              wall / wallA,
              p50,
              p50 / p50A,
              median(c, level, m -> m.percentileMicros(0.99)),
              median(c, level, Measurement::cpuMicrosPerCall),
              median(c, level, Measurement::allocatedKibPerCall),
              fsyncs < 0 ? "-" : String.format(Locale.ROOT, "%.3f", (double) fsyncs / calls));
        }
      }
      Caller json = byMode('b');
      Caller form = byMode('d');
      if (json != null && form != null) {
        for (int level : levels) {
          double j = median(json, level, Measurement::wallMicrosPerCall);
          double f = median(form, level, Measurement::wallMicrosPerCall);
          double jc = median(json, level, Measurement::cpuMicrosPerCall);
          double fc = median(form, level, Measurement::cpuMicrosPerCall);
          out.printf(
              Locale.ROOT,
              "form vs JSON at concurrency %d: %.1f vs %.1f µs/call (d/b %.3f), cpu %.1f vs %.1f"
                  + " µs (d/b %.3f)%n",
              level,
              f,
              j,
              f / j,
              fc,
              jc,
              fc / jc);
        }
      }
      if (json != null) {
        Caller bare = callers.get(0);
        for (int level : levels) {
          double ratio =
              median(json, level, Measurement::wallMicrosPerCall)
                  / median(bare, level, Measurement::wallMicrosPerCall);
          double target = level == 1 ? Benchmarks.SEQUENTIAL_TARGET : Benchmarks.CONCURRENT_TARGET;
          out.printf(
              Locale.ROOT,
              "b/a at concurrency %d: %.3f, target <= %.2f: %s%n",
              level,
              ratio,
              target,
              ratio <= target ? "met" : "NOT MET");
        }
      }
      out.println(
          "Medians over rounds. µs/call: elapsed time per call (1 / throughput); ratio:"
              + " over bare OkHttp at the same concurrency (b/a, c/a); p50/p99: per-call latency;"
              + " cpu µs / KiB: caller-thread CPU and heap allocated per call; fsyncs: per intent.");
    }
  }
}
