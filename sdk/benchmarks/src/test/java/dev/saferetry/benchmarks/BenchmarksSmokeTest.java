package dev.saferetry.benchmarks;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.options.VerboseMode;

/**
 * The benchmarks compile and run: one 100 ms iteration of the SDK call (its setup also builds the
 * bare baseline and the other callers), in this JVM. Measures nothing; the figures come from {@link
 * Benchmarks}.
 */
class BenchmarksSmokeTest {
  @Test
  @Timeout(30)
  void theCallOverheadBenchmarkRunsTheSdkPath() throws Exception {
    Benchmarks benchmarks =
        new Benchmarks(
            new Benchmarks.Settings(0, 1, 100, 0, 1, "inproc", "target/bench"), System.out);
    Map<String, Result<?>> scores =
        Benchmarks.byMethod(
            new Runner(
                    benchmarks
                        .options(CallOverhead.class, "sdkInMemory", 1)
                        .param("server", "inproc")
                        .verbosity(VerboseMode.SILENT)
                        .build())
                .run());
    assertThat(scores).containsOnlyKeys("sdkInMemory");
    assertThat(scores.get("sdkInMemory").getSampleCount()).isPositive();
  }
}
