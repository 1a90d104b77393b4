package dev.saferetry.benchmarks;

import java.util.Arrays;

/**
 * The figures of one timed run.
 *
 * @param calls how many calls were made
 * @param concurrency how many callers made them
 * @param wallNanos the run's elapsed time
 * @param callerCpuNanos CPU time the caller threads used (OkHttp's own threads excluded)
 * @param callerAllocatedBytes heap the caller threads allocated (0 where the JVM cannot tell)
 * @param latencies each call's latency in nanoseconds, sorted
 *     <p>Instances are immutable in practice (the array is not exposed to callers outside the
 *     package); thread-safe.
 */
record Measurement(
    int calls,
    int concurrency,
    long wallNanos,
    long callerCpuNanos,
    long callerAllocatedBytes,
    long[] latencies) {

  /** Sorts a copy of the latencies. */
  Measurement {
    latencies = latencies.clone();
    Arrays.sort(latencies);
  }

  /** Returns the figures of this run and {@code other} together, as if they were one run. */
  Measurement plus(Measurement other) {
    long[] all = Arrays.copyOf(latencies, latencies.length + other.latencies.length);
    System.arraycopy(other.latencies, 0, all, latencies.length, other.latencies.length);
    return new Measurement(
        calls + other.calls,
        concurrency,
        wallNanos + other.wallNanos,
        callerCpuNanos + other.callerCpuNanos,
        callerAllocatedBytes + other.callerAllocatedBytes,
        all);
  }

  /** Calls per second. */
  double throughput() {
    return calls * 1e9 / wallNanos;
  }

  /** Elapsed time per call in microseconds: the inverse of throughput, the ratio's basis. */
  double wallMicrosPerCall() {
    return wallNanos / 1e3 / calls;
  }

  /** Caller-thread CPU time per call in microseconds. */
  double cpuMicrosPerCall() {
    return callerCpuNanos / 1e3 / calls;
  }

  /** Heap allocated by the caller thread per call, in KiB. */
  double allocatedKibPerCall() {
    return callerAllocatedBytes / 1024.0 / calls;
  }

  /** Mean latency of one call in microseconds. */
  double meanMicros() {
    long sum = 0;
    for (long l : latencies) {
      sum += l;
    }
    return sum / 1e3 / latencies.length;
  }

  /** The latency at quantile {@code q} in microseconds. */
  double percentileMicros(double q) {
    int index = (int) Math.min(latencies.length - 1, Math.ceil(q * latencies.length) - 1);
    return latencies[Math.max(0, index)] / 1e3;
  }
}
