package dev.saferetry.benchmarks;

import dev.saferetry.CallResult;
import dev.saferetry.RequestOptions;
import dev.saferetry.SafeRetryClient;
import dev.saferetry.SafeRetryClientBuilder;
import dev.saferetry.examples.payments.Charge;
import dev.saferetry.examples.payments.ChargeCreateParams;
import dev.saferetry.examples.payments.Charges;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.lang.management.ThreadMXBean;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * What {@code executeAsync} costs while calls wait: {@code --calls} charges (default 10,000)
 * started at once against a server, in its own JVM, that answers each after {@code --delay-ms}
 * (default 1,000). Prints the platform threads this JVM started, the peak of live platform threads,
 * the peak heap in use, the peak number of calls in flight and the completion time. Virtual threads
 * are not platform threads: on JDK 21 and newer the client's I/O runs on them.
 *
 * <pre>
 * java -cp sdk/benchmarks/target/saferetry-benchmarks.jar \
 *   dev.saferetry.benchmarks.AsyncBenchmark --calls 10000 --delay-ms 1000
 * </pre>
 *
 * <p>Options: {@code --calls N}, {@code --delay-ms N}, {@code --concurrency N} (the client's {@code
 * asyncConcurrency}; default: the client's own default for this JDK). A one-shot measurement of
 * threads and heap, not a JMH benchmark.
 */
public final class AsyncBenchmark {
  private AsyncBenchmark() {}

  /** Runs the benchmark; see the class comment for the options. */
  public static void main(String[] args) throws Exception {
    Map<String, String> opts = new LinkedHashMap<>();
    for (int i = 0; i + 1 < args.length; i += 2) {
      opts.put(args[i].replaceFirst("^--", ""), args[i + 1]);
    }
    int calls = Integer.parseInt(opts.getOrDefault("calls", "10000"));
    String delay = opts.getOrDefault("delay-ms", "1000");
    Process server = startServer(delay);
    try {
      int port = readPort(server);
      run(calls, delay, port, opts.get("concurrency"));
    } finally {
      server.destroyForcibly();
    }
  }

  private static void run(int calls, String delay, int port, String concurrency) throws Exception {
    ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
    System.gc();
    long heapBefore = memory.getHeapMemoryUsage().getUsed();
    long startedBefore = threads.getTotalStartedThreadCount();
    threads.resetPeakThreadCount();
    SafeRetryClientBuilder b =
        SafeRetryClient.builder().baseUrl("http://127.0.0.1:" + port).apiKey("sk_test_bench");
    if (concurrency != null) {
      b.asyncConcurrency(Integer.parseInt(concurrency));
    }
    AtomicInteger inFlight = new AtomicInteger();
    int peakInFlight = 0;
    long peakHeap = 0;
    long start = System.nanoTime();
    try (SafeRetryClient client = b.build()) {
      List<CompletableFuture<CallResult<Charge>>> futures = new ArrayList<>(calls);
      for (int i = 0; i < calls; i++) {
        inFlight.incrementAndGet();
        RequestOptions intent = RequestOptions.none().withIntentId("order-" + i);
        futures.add(
            client
                .executeAsync(Charges.CREATE, ChargeCreateParams.of(1000 + i, "eur"), intent)
                .whenComplete((r, e) -> inFlight.decrementAndGet()));
      }
      CompletableFuture<Void> all =
          CompletableFuture.allOf(futures.toArray(CompletableFuture[]::new));
      Map<String, Integer> kinds = new TreeMap<>();
      for (int tick = 0; !all.isDone(); tick++) {
        if (tick % 10 == 0) {
          threadKinds(kinds);
        }
        peakInFlight = Math.max(peakInFlight, inFlight.get());
        peakHeap = Math.max(peakHeap, memory.getHeapMemoryUsage().getUsed());
        try {
          all.get(20, TimeUnit.MILLISECONDS);
        } catch (TimeoutException stillRunning) {
          // sample again
        }
      }
      double seconds = (System.nanoTime() - start) / 1e9;
      long ok = futures.stream().filter(f -> f.join().status() == 200).count();
      print(
          calls,
          delay,
          concurrency,
          seconds,
          ok,
          peakInFlight,
          peakHeap - heapBefore,
          threads,
          startedBefore);
      System.out.println("  platform threads seen, most at once, by name: " + kinds);
    }
  }

  private static void print(
      int calls,
      String delay,
      String concurrency,
      double seconds,
      long ok,
      int peakInFlight,
      long heapGrowth,
      ThreadMXBean threads,
      long startedBefore) {
    Locale r = Locale.ROOT;
    System.out.printf(
        r,
        "SafeRetry async benchmark, Java %s (%s), %d cores%n",
        System.getProperty("java.version"),
        System.getProperty("java.vm.name"),
        Runtime.getRuntime().availableProcessors());
    System.out.printf(
        r,
        "  calls %d against a server answering after %s ms; asyncConcurrency %s%n",
        calls,
        delay,
        concurrency == null ? "default" : concurrency);
    System.out.printf(r, "  completed %d/%d in %.2f s%n", ok, calls, seconds);
    System.out.printf(r, "  calls in flight (peak)          %d%n", peakInFlight);
    System.out.printf(
        r,
        "  platform threads started        %d%n",
        threads.getTotalStartedThreadCount() - startedBefore);
    System.out.printf(r, "  platform threads live (peak)    %d%n", threads.getPeakThreadCount());
    System.out.printf(r, "  heap in use, peak above start   %.1f MiB%n", heapGrowth / 1048576.0);
  }

  /** Counts live platform threads by name with digits folded, keeping each name's maximum. */
  private static void threadKinds(Map<String, Integer> kinds) {
    Map<String, Integer> now = new TreeMap<>();
    for (Thread t : Thread.getAllStackTraces().keySet()) {
      now.merge(t.getName().replaceAll("[0-9]+", "#"), 1, Integer::sum);
    }
    now.forEach((name, n) -> kinds.merge(name, n, Math::max));
  }

  private static Process startServer(String delayMs) throws Exception {
    List<String> command =
        List.of(
            Path.of(System.getProperty("java.home"), "bin", "java").toString(),
            "-cp",
            System.getProperty("java.class.path"),
            DelayedServer.class.getName(),
            "--delay-ms",
            delayMs);
    return new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT).start();
  }

  private static int readPort(Process server) throws Exception {
    BufferedReader out =
        new BufferedReader(new InputStreamReader(server.getInputStream(), StandardCharsets.UTF_8));
    String line = out.readLine();
    if (line == null || !line.startsWith("port ")) {
      throw new IllegalStateException("the server did not start: " + line);
    }
    return Integer.parseInt(line.substring(5).trim());
  }
}
