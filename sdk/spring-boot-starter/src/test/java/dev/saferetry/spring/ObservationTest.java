package dev.saferetry.spring;

import static org.assertj.core.api.Assertions.assertThat;

import dev.saferetry.RequestOptions;
import dev.saferetry.SafeRetryClient;
import dev.saferetry.spring.app.Orders;
import dev.saferetry.spring.app.RecordedObservations;
import io.micrometer.common.KeyValue;
import io.micrometer.observation.Observation;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Qualifier;

/** A call is an observation with one child per attempt, tagged safely. */
class ObservationTest extends StarterContextTest {
  @Autowired RecordedObservations recorded;

  @Autowired
  @Qualifier("payments")
  SafeRetryClient payments;

  private static String value(Observation.Context c, String key) {
    KeyValue low = c.getLowCardinalityKeyValue(key);
    if (low != null) {
      return low.getValue();
    }
    KeyValue high = c.getHighCardinalityKeyValue(key);
    return high == null ? null : high.getValue();
  }

  @Test
  void aCallIsObservedWithAChildPerAttemptCarryingTheKeyButNeverTheCredentials() {
    var result =
        payments.execute(
            Orders.CHARGE,
            Map.of("amount", 3, "order", "observed"),
            RequestOptions.none().withIntentId("observed-intent"));

    Observation.Context call =
        recorded.stopped.stream()
            .filter(c -> "saferetry.call".equals(c.getName()))
            .filter(c -> "observed-intent".equals(value(c, "saferetry.intent_id")))
            .findFirst()
            .orElseThrow();
    assertThat(value(call, "saferetry.client")).isEqualTo("payments");
    assertThat(value(call, "saferetry.outcome")).isEqualTo("succeeded");

    List<Observation.Context> attempts =
        recorded.stopped.stream()
            .filter(c -> "saferetry.attempt".equals(c.getName()))
            .filter(c -> c.getParentObservation() != null)
            .filter(c -> c.getParentObservation().getContextView() == call)
            .toList();
    assertThat(attempts).hasSize(1);
    Observation.Context attempt = attempts.get(0);
    assertThat(value(attempt, "saferetry.idempotency_key")).isEqualTo(result.key().value());
    assertThat(value(attempt, "saferetry.attempt.result")).isEqualTo("200");
    assertThat(attempt.getHighCardinalityKeyValue("saferetry.idempotency_key")).isNotNull();
    assertThat(attempt.getLowCardinalityKeyValue("saferetry.idempotency_key")).isNull();

    for (Observation.Context c : recorded.stopped) {
      for (KeyValue kv : c.getAllKeyValues()) {
        assertThat(kv.getValue()).doesNotContain(API_KEY);
      }
    }
  }
}
