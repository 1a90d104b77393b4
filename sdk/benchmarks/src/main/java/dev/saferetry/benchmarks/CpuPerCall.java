package dev.saferetry.benchmarks;

import java.lang.management.ManagementFactory;
import java.util.Collection;
import java.util.List;
import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.infra.IterationParams;
import org.openjdk.jmh.profile.InternalProfiler;
import org.openjdk.jmh.results.AggregationPolicy;
import org.openjdk.jmh.results.IterationResult;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.ScalarResult;

/**
 * A JMH profiler: the forked JVM's CPU time (all its threads: client, loopback server, JIT and GC)
 * per call over each iteration, in microseconds. On a shared machine a call waits longer for a core
 * when the load rises, but the CPU it burns changes much less, so this is the steadier figure. Used
 * by {@link PairedRuns}; thread-safe as JMH calls it (one iteration at a time).
 */
public final class CpuPerCall implements InternalProfiler {
  private long before;

  @Override
  public String getDescription() {
    return "process CPU time per call";
  }

  @Override
  public void beforeIteration(BenchmarkParams benchmark, IterationParams iteration) {
    before = cpuNanos();
  }

  @Override
  public Collection<? extends Result> afterIteration(
      BenchmarkParams benchmark, IterationParams iteration, IterationResult result) {
    long used = cpuNanos() - before;
    long ops = result.getMetadata().getAllOps();
    double perCall = ops == 0 ? Double.NaN : used / 1000.0 / ops;
    return List.of(new ScalarResult("cpu.per.call", perCall, "µs/op", AggregationPolicy.AVG));
  }

  private static long cpuNanos() {
    return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
        .getProcessCpuTime();
  }
}
