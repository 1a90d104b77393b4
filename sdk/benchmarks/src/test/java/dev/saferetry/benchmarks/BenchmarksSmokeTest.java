package dev.saferetry.benchmarks;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.options.VerboseMode;

/**
 * The benchmarks compile and run: one iteration of the bare baseline and of the SDK call, in this
 * JVM, a fraction of a second each. Measures nothing; the figures come from {@link Benchmarks}.
 */
class BenchmarksSmokeTest {
  @Test
  @Timeout(30)
  void theCallOverheadBenchmarkRunsItsBaselineAndTheSdkPath() throws Exception {
    Benchmarks benchmarks =
        new Benchmarks(
            new Benchmarks.Settings(0, 1, 100, 0, 1, "inproc", "target/bench"), System.out);
    Map<String, Result<?>> scores =
        Benchmarks.byMethod(
            new Runner(
                    benchmarks
                        .options(CallOverhead.class, "bare|sdkInMemory", 1)
                        .param("server", "inproc")
                        .verbosity(VerboseMode.SILENT)
                        .build())
                .run());
    assertThat(scores).containsOnlyKeys("bare", "sdkInMemory");
    assertThat(scores.values()).allSatisfy(r -> assertThat(r.getSampleCount()).isPositive());
  }
}
