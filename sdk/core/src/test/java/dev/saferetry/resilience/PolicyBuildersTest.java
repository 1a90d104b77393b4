package dev.saferetry.resilience;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/** Policies are immutable values: documented defaults, named checks, with-copies. */
class PolicyBuildersTest {

  @Test
  void theDefaultsAreTheDocumentedOnes() {
    RetryPolicy r = RetryPolicy.defaults();
    assertThat(r.maxAttempts()).isEqualTo(4);
    assertThat(r.initialDelay()).isEqualTo(Duration.ofMillis(500));
    assertThat(r.multiplier()).isEqualTo(2.0);
    assertThat(r.maxDelay()).isEqualTo(Duration.ofSeconds(8));
    assertThat(r.deadline()).isEqualTo(Duration.ofSeconds(60));
    assertThat(r.maxRetryAfter()).isEqualTo(Duration.ofSeconds(60));
    assertThat(RetryPolicy.noRetries().maxAttempts()).isEqualTo(1);

    BreakerPolicy b = BreakerPolicy.defaults();
    assertThat(b.enabled()).isTrue();
    assertThat(b.failureRateThreshold()).isEqualTo(50f);
    assertThat(b.slidingWindowSize()).isEqualTo(50);
    assertThat(b.minimumCalls()).isEqualTo(20);
    assertThat(b.waitInOpenState()).isEqualTo(Duration.ofSeconds(30));
    assertThat(b.halfOpenProbes()).isEqualTo(2);
    assertThat(BreakerPolicy.disabled().enabled()).isFalse();

    RetryBudgetPolicy g = RetryBudgetPolicy.defaults();
    assertThat(g.enabled()).isTrue();
    assertThat(g.capacity()).isEqualTo(20);
    assertThat(g.retryCost()).isEqualTo(1);
    assertThat(g.successCredit()).isEqualTo(0.1);
    assertThat(RetryBudgetPolicy.unlimited().enabled()).isFalse();
  }

  @Test
  void withCopiesEverySettingAndLeavesTheOriginalAlone() {
    RetryPolicy r =
        RetryPolicy.defaults()
            .withMaxAttempts(6)
            .withInitialDelay(Duration.ofMillis(10))
            .withMultiplier(3)
            .withMaxDelay(Duration.ofSeconds(1))
            .withDeadline(Duration.ofSeconds(9))
            .withMaxRetryAfter(Duration.ofSeconds(2));
    assertThat(r.withMaxAttempts(6)).isEqualTo(r).hasSameHashCodeAs(r);
    RetryPolicy changed = r.withMaxAttempts(2);
    assertThat(changed.maxAttempts()).isEqualTo(2);
    assertThat(r.maxAttempts()).isEqualTo(6);
    assertThat(changed).isNotEqualTo(r);

    BreakerPolicy b = BreakerPolicy.defaults().withSlidingWindowSize(5).withMinimumCalls(3);
    assertThat(b.withHalfOpenProbes(b.halfOpenProbes())).isEqualTo(b);
    RetryBudgetPolicy g = RetryBudgetPolicy.defaults().withCapacity(3).withRetryCost(0.5);
    assertThat(g.withSuccessCredit(g.successCredit())).isEqualTo(g);
    assertThat(g.toString()).contains("capacity=3.0", "retryCost=0.5");
  }

  @Test
  void aBadSettingFailsNamingIt() {
    assertThatThrownBy(() -> RetryPolicy.defaults().withMaxAttempts(0))
        .hasMessageContaining("maxAttempts");
    assertThatThrownBy(() -> RetryPolicy.defaults().withInitialDelay(Duration.ofMillis(-1)))
        .hasMessageContaining("initialDelay");
    assertThatThrownBy(() -> RetryPolicy.defaults().withMultiplier(0.5))
        .hasMessageContaining("multiplier");
    assertThatThrownBy(() -> RetryPolicy.defaults().withMultiplier(Double.NaN))
        .hasMessageContaining("multiplier");
    assertThatThrownBy(() -> RetryPolicy.defaults().withDeadline(Duration.ZERO))
        .hasMessageContaining("deadline");
    assertThatThrownBy(() -> RetryPolicy.defaults().withDeadline(null))
        .hasMessageContaining("deadline");
    assertThatThrownBy(() -> BreakerPolicy.defaults().withFailureRateThreshold(0))
        .hasMessageContaining("failureRateThreshold");
    assertThatThrownBy(() -> BreakerPolicy.defaults().withFailureRateThreshold(101))
        .hasMessageContaining("failureRateThreshold");
    assertThatThrownBy(() -> BreakerPolicy.defaults().withSlidingWindowSize(0))
        .hasMessageContaining("slidingWindowSize");
    assertThatThrownBy(() -> BreakerPolicy.defaults().withWaitInOpenState(Duration.ZERO))
        .hasMessageContaining("waitInOpenState");
    assertThatThrownBy(() -> BreakerPolicy.defaults().withHalfOpenProbes(0))
        .hasMessageContaining("halfOpenProbes");
    assertThatThrownBy(() -> RetryBudgetPolicy.defaults().withCapacity(-1))
        .hasMessageContaining("capacity");
    assertThatThrownBy(() -> RetryBudgetPolicy.defaults().withRetryCost(0))
        .hasMessageContaining("retryCost");
    assertThatThrownBy(
            () -> RetryBudgetPolicy.defaults().withSuccessCredit(Double.POSITIVE_INFINITY))
        .hasMessageContaining("successCredit");
  }
}
