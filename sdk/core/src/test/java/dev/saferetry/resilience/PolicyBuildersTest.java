package dev.saferetry.resilience;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/** Policies are built, immutable values: documented defaults, named checks, toBuilder copies. */
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
  void toBuilderCopiesEverySettingAndLeavesTheOriginalAlone() {
    RetryPolicy r =
        RetryPolicy.builder()
            .maxAttempts(6)
            .initialDelay(Duration.ofMillis(10))
            .multiplier(3)
            .maxDelay(Duration.ofSeconds(1))
            .deadline(Duration.ofSeconds(9))
            .maxRetryAfter(Duration.ofSeconds(2))
            .build();
    assertThat(r.toBuilder().build()).isEqualTo(r).hasSameHashCodeAs(r);
    RetryPolicy changed = r.toBuilder().maxAttempts(2).build();
    assertThat(changed.maxAttempts()).isEqualTo(2);
    assertThat(r.maxAttempts()).isEqualTo(6);
    assertThat(changed).isNotEqualTo(r);

    BreakerPolicy b = BreakerPolicy.builder().slidingWindowSize(5).minimumCalls(3).build();
    assertThat(b.toBuilder().build()).isEqualTo(b);
    RetryBudgetPolicy g = RetryBudgetPolicy.builder().capacity(3).retryCost(0.5).build();
    assertThat(g.toBuilder().build()).isEqualTo(g);
    assertThat(g.toString()).contains("capacity=3.0", "retryCost=0.5");
  }

  @Test
  void aBadSettingFailsBuildNamingIt() {
    assertThatThrownBy(() -> RetryPolicy.builder().maxAttempts(0).build())
        .hasMessageContaining("maxAttempts");
    assertThatThrownBy(() -> RetryPolicy.builder().initialDelay(Duration.ofMillis(-1)).build())
        .hasMessageContaining("initialDelay");
    assertThatThrownBy(() -> RetryPolicy.builder().multiplier(0.5).build())
        .hasMessageContaining("multiplier");
    assertThatThrownBy(() -> RetryPolicy.builder().multiplier(Double.NaN).build())
        .hasMessageContaining("multiplier");
    assertThatThrownBy(() -> RetryPolicy.builder().deadline(Duration.ZERO).build())
        .hasMessageContaining("deadline");
    assertThatThrownBy(() -> RetryPolicy.builder().deadline(null).build())
        .hasMessageContaining("deadline");
    assertThatThrownBy(() -> BreakerPolicy.builder().failureRateThreshold(0).build())
        .hasMessageContaining("failureRateThreshold");
    assertThatThrownBy(() -> BreakerPolicy.builder().failureRateThreshold(101).build())
        .hasMessageContaining("failureRateThreshold");
    assertThatThrownBy(() -> BreakerPolicy.builder().slidingWindowSize(0).build())
        .hasMessageContaining("slidingWindowSize");
    assertThatThrownBy(() -> BreakerPolicy.builder().waitInOpenState(Duration.ZERO).build())
        .hasMessageContaining("waitInOpenState");
    assertThatThrownBy(() -> BreakerPolicy.builder().halfOpenProbes(0).build())
        .hasMessageContaining("halfOpenProbes");
    assertThatThrownBy(() -> RetryBudgetPolicy.builder().capacity(-1).build())
        .hasMessageContaining("capacity");
    assertThatThrownBy(() -> RetryBudgetPolicy.builder().retryCost(0).build())
        .hasMessageContaining("retryCost");
    assertThatThrownBy(
            () -> RetryBudgetPolicy.builder().successCredit(Double.POSITIVE_INFINITY).build())
        .hasMessageContaining("successCredit");
  }
}
