package dev.saferetry.benchmarks;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Makes a fixed number of calls with a fixed number of caller threads, each taking the next call
 * number until none is left, and times every call.
 *
 * <p>Not thread-safe: one run at a time.
 */
final class LoadRunner implements AutoCloseable {
  private final ExecutorService pool;
  private final int maxThreads;

  LoadRunner(int maxThreads) {
    this.maxThreads = maxThreads;
    AtomicInteger n = new AtomicInteger();
    this.pool =
        Executors.newFixedThreadPool(
            maxThreads,
            r -> {
              Thread t = new Thread(r, "bench-caller-" + n.incrementAndGet());
              t.setDaemon(true);
              return t;
            });
  }

  /** Runs {@code calls} calls of {@code caller} with {@code concurrency} threads. */
  Measurement run(Caller caller, String runId, int calls, int concurrency) throws Exception {
    if (concurrency > maxThreads) {
      throw new IllegalArgumentException("concurrency above " + maxThreads);
    }
    long[] latencies = new long[calls];
    AtomicInteger next = new AtomicInteger();
    AtomicLong cpu = new AtomicLong();
    AtomicLong allocated = new AtomicLong();
    ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    List<Future<?>> workers = new ArrayList<>();
    long start = System.nanoTime();
    for (int w = 0; w < concurrency; w++) {
      workers.add(
          pool.submit(
              () -> {
                long cpu0 = threads.getCurrentThreadCpuTime();
                long alloc0 = allocatedBytes(threads);
                for (int i = next.getAndIncrement(); i < calls; i = next.getAndIncrement()) {
                  long t0 = System.nanoTime();
                  caller.call(runId, i);
                  latencies[i] = System.nanoTime() - t0;
                }
                cpu.addAndGet(threads.getCurrentThreadCpuTime() - cpu0);
                allocated.addAndGet(allocatedBytes(threads) - alloc0);
                return null;
              }));
    }
    try {
      for (Future<?> f : workers) {
        f.get();
      }
    } catch (ExecutionException e) {
      next.set(calls);
      throw new IllegalStateException(caller.name() + " failed: " + e.getCause(), e.getCause());
    }
    long wall = System.nanoTime() - start;
    return new Measurement(calls, concurrency, wall, cpu.get(), allocated.get(), latencies);
  }

  /** Bytes this thread allocated so far, where the JVM tells (HotSpot does); else 0. */
  private static long allocatedBytes(ThreadMXBean threads) {
    if (threads instanceof com.sun.management.ThreadMXBean hotspot) {
      return hotspot.getThreadAllocatedBytes(Thread.currentThread().getId());
    }
    return 0;
  }

  @Override
  public void close() {
    pool.shutdownNow();
  }
}
