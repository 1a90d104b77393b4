package dev.saferetry.benchmarks;

import java.lang.management.ManagementFactory;
import java.util.Locale;
import java.util.function.Supplier;

/**
 * Bytes allocated per call by the calling thread alone, for the two sides of {@link TypedCallCost}
 * answered in-process (so the whole call runs on this thread): warmed up, then measured in
 * alternating blocks. Unlike JMH's gc profiler it leaves out the JIT's, GC's and other threads'
 * allocations, which grow with the machine's load, so the two paths' figures can be compared byte
 * for byte.
 *
 * <pre>
 * java -cp saferetry-benchmarks.jar dev.saferetry.benchmarks.CallerAllocation [blocks=6] [calls=20000]
 * </pre>
 *
 * <p>Not thread-safe; one run per process.
 */
public final class CallerAllocation {
  private CallerAllocation() {}

  /** Runs it; see the class comment. */
  public static void main(String[] args) throws Exception {
    int blocks = args.length > 0 ? Integer.parseInt(args[0]) : 6;
    int calls = args.length > 1 ? Integer.parseInt(args[1]) : 20_000;
    TypedCallCost bench = new TypedCallCost();
    bench.server = "inproc";
    bench.start();
    try {
      measure(bench::handWritten, calls); // warm-up
      measure(bench::typed, calls);
      System.out.printf(
          Locale.ROOT,
          "caller-thread bytes per call, %d calls per block, in-process answer%n",
          calls);
      for (int b = 0; b < blocks; b++) {
        double hand;
        double typed;
        if (b % 2 == 0) {
          hand = measure(bench::handWritten, calls);
          typed = measure(bench::typed, calls);
        } else {
          typed = measure(bench::typed, calls);
          hand = measure(bench::handWritten, calls);
        }
        System.out.printf(
            Locale.ROOT, "block %d: hand-written %.1f, typed %.1f%n", b + 1, hand, typed);
      }
    } finally {
      bench.stop();
    }
  }

  private static double measure(Supplier<?> call, int calls) {
    com.sun.management.ThreadMXBean threads =
        (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
    long id = Thread.currentThread().getId();
    long before = threads.getThreadAllocatedBytes(id);
    for (int i = 0; i < calls; i++) {
      if (call.get() == null) {
        throw new IllegalStateException("no charge");
      }
    }
    return (threads.getThreadAllocatedBytes(id) - before) / (double) calls;
  }
}
