package dev.saferetry.examples;

import static org.assertj.core.api.Assertions.assertThat;

import dev.saferetry.examples.demo.Report;
import dev.saferetry.examples.demo.Scenarios;
import dev.saferetry.examples.demo.WireLog;
import dev.saferetry.testing.FakeTime;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

class AsyncChargesTest {
  @Test
  void everyConcurrentIntentMakesExactlyOneChargeWithItsOwnKey() throws Exception {
    FakeTime time = new FakeTime();
    Report report = new Scenarios(time, time).async();

    assertThat(report.sideEffects()).isEqualTo(AsyncCharges.ORDERS);
    assertThat(report.passed()).isTrue();
    Map<String, List<WireLog.Row>> byIntent =
        Rows.attempts(report).stream().collect(Collectors.groupingBy(WireLog.Row::intentId));
    assertThat(byIntent).hasSize(AsyncCharges.ORDERS);
    assertThat(Rows.keys(report))
        .hasSize(AsyncCharges.ORDERS + Scenarios.ASYNC_LOST_RESPONSES)
        .doesNotContain("-");
    assertThat(Rows.keys(report).stream().distinct()).hasSize(AsyncCharges.ORDERS);
    List<List<WireLog.Row>> retried =
        byIntent.values().stream().filter(rows -> rows.size() > 1).toList();
    assertThat(retried).hasSize(Scenarios.ASYNC_LOST_RESPONSES);
    for (List<WireLog.Row> rows : retried) {
      assertThat(rows).extracting(WireLog.Row::result).containsExactly("UNEXPECTED_EOF", "201");
      assertThat(rows).extracting(WireLog.Row::key).containsOnly(rows.get(0).key());
    }
  }
}
