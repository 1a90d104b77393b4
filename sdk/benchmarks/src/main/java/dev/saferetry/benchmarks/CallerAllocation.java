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
 * java -cp saferetry-benchmarks.jar dev.saferetry.benchmarks.CallerAllocation \
 *     [typed|starter] [blocks=6] [calls=20000]
 * </pre>
 *
 * <p>Not thread-safe; one run per process.
 */
public final class CallerAllocation {
  private CallerAllocation() {}

  /** Runs it; see the class comment. */
  public static void main(String[] args) throws Exception {
    String pair = args.length > 0 ? args[0] : "typed";
    int blocks = args.length > 1 ? Integer.parseInt(args[1]) : 6;
    int calls = args.length > 2 ? Integer.parseInt(args[2]) : 20_000;
    Supplier<?> a;
    Supplier<?> b;
    AutoCloseable stop;
    if (pair.equals("starter")) {
      StarterCallCost bench = new StarterCallCost();
      bench.server = "inproc";
      bench.start();
      a = bench::handBuilt;
      b = bench::starter;
      stop = bench::stop;
    } else {
      TypedCallCost bench = new TypedCallCost();
      bench.server = "inproc";
      bench.start();
      a = bench::handWritten;
      b = bench::typed;
      stop = bench::stop;
    }
    String nameA = pair.equals("starter") ? "hand-built" : "hand-written";
    String nameB = pair.equals("starter") ? "starter" : "typed";
    try {
      measure(a, calls); // warm-up
      measure(b, calls);
      System.out.printf(
          Locale.ROOT,
          "%s: caller-thread bytes per call, %d calls per block, in-process answer%n",
          pair,
          calls);
      for (int i = 0; i < blocks; i++) {
        double x;
        double y;
        if (i % 2 == 0) {
          x = measure(a, calls);
          y = measure(b, calls);
        } else {
          y = measure(b, calls);
          x = measure(a, calls);
        }
        System.out.printf(Locale.ROOT, "block %d: %s %.1f, %s %.1f%n", i + 1, nameA, x, nameB, y);
      }
    } finally {
      stop.close();
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
