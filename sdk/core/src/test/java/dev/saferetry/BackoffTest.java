package dev.saferetry;

import static org.assertj.core.api.Assertions.assertThat;

import dev.saferetry.resilience.RetryPolicy;
import java.time.Duration;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** Exponential backoff with full jitter, as a pure function of the attempt and a seeded random. */
class BackoffTest {
  @Test
  void fullJitterStaysWithinTheExponentialCap() {
    RetryPolicy policy = RetryPolicy.defaults();
    Random seeded = new Random(42);
    Backoff backoff = new Backoff(policy, seeded::nextDouble);
    assertThat(backoff.cap(1)).isEqualTo(Duration.ofMillis(500));
    assertThat(backoff.cap(2)).isEqualTo(Duration.ofMillis(1000));
    assertThat(backoff.cap(5)).isEqualTo(Duration.ofSeconds(8));
    assertThat(backoff.cap(30)).isEqualTo(Duration.ofSeconds(8));
    for (int n = 1; n <= 10; n++) {
      for (int i = 0; i < 100; i++) {
        Duration d = backoff.delay(n);
        assertThat(d).isBetween(Duration.ZERO, backoff.cap(n));
      }
    }
  }

  @Test
  void fullJitterCoversTheWholeRange() {
    Backoff low = new Backoff(RetryPolicy.defaults(), () -> 0.0);
    Backoff high = new Backoff(RetryPolicy.defaults(), () -> 0.999_999);
    assertThat(low.delay(3)).isEqualTo(Duration.ZERO);
    assertThat(high.delay(3)).isCloseTo(Duration.ofSeconds(2), Duration.ofMillis(1));
  }

  @Test
  void aMaxDelayBeyondLongNanosecondsSaturatesInsteadOfOverflowing() {
    // 300 years: Duration.toNanos() of it overflows a long.
    Duration centuries = Duration.ofDays(300L * 365);
    RetryPolicy policy =
        RetryPolicy.defaults().withMaxAttempts(100).withMultiplier(10).withMaxDelay(centuries);
    Backoff backoff = new Backoff(policy, () -> 0.5);
    assertThat(backoff.cap(1)).isEqualTo(Duration.ofMillis(500));
    assertThat(backoff.cap(3)).isEqualTo(Duration.ofMillis(50_000));
    assertThat(backoff.cap(99)).isEqualTo(centuries);
    assertThat(backoff.delay(99)).isBetween(centuries.dividedBy(3), centuries);
  }

  @Test
  void theLargestDurationsAsMaxDelayAndInitialDelayStillGiveADelay() {
    Duration largest = Duration.ofSeconds(Long.MAX_VALUE, 999_999_999);
    RetryPolicy policy =
        RetryPolicy.defaults()
            .withMaxAttempts(100)
            .withInitialDelay(largest)
            .withMaxDelay(largest)
            .withMultiplier(1_000);
    Backoff backoff = new Backoff(policy, () -> 0.999_999);
    assertThat(backoff.cap(1)).isEqualTo(largest);
    assertThat(backoff.cap(2000)).isEqualTo(largest); // growth is infinite here
    assertThat(backoff.delay(2000)).isPositive().isLessThanOrEqualTo(largest);
  }
}
