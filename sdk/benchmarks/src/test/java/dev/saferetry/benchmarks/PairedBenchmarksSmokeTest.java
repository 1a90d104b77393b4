package dev.saferetry.benchmarks;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The paired benchmarks set up and make their calls: each side of {@link TypedCallCost} and {@link
 * StarterCallCost} once, outside JMH (the starter's side in a real Spring Boot context). Measures
 * nothing; the figures come from {@link PairedRuns}.
 */
class PairedBenchmarksSmokeTest {
  @Test
  @Timeout(30)
  void theTypedAndTheHandWrittenCallEachReachTheServer() throws Exception {
    TypedCallCost bench = new TypedCallCost();
    bench.start();
    try {
      assertThat(bench.typed().amount()).isEqualTo(1000L);
      assertThat(bench.handWritten().amount()).isEqualTo(1000L);
      assertThat(bench.server().requests()).isEqualTo(2);
    } finally {
      bench.stop();
    }
  }

  @Test
  @Timeout(60)
  void theStarterBuiltAndTheHandBuiltClientEachReachTheServer() throws Exception {
    StarterCallCost bench = new StarterCallCost();
    bench.start();
    try {
      assertThat(bench.starter().amount()).isEqualTo(1000L);
      assertThat(bench.handBuilt().amount()).isEqualTo(1000L);
      assertThat(bench.server().requests()).isEqualTo(2);
    } finally {
      bench.stop();
    }
  }
}
