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
    // The report lists the intents whose response was lost, attempt by attempt, and sums up
    // the others in a note.
    Map<String, List<WireLog.Row>> retried =
        Rows.attempts(report).stream().collect(Collectors.groupingBy(WireLog.Row::intentId));
    assertThat(retried).hasSize(Scenarios.ASYNC_LOST_RESPONSES);
    assertThat(Rows.keys(report).stream().distinct()).hasSize(Scenarios.ASYNC_LOST_RESPONSES);
    assertThat(Rows.notes(report))
        .containsExactly(
            (AsyncCharges.ORDERS - Scenarios.ASYNC_LOST_RESPONSES)
                + " other intents: one attempt each, one key each");
    for (List<WireLog.Row> rows : retried.values()) {
      assertThat(rows).extracting(WireLog.Row::result).containsExactly("UNEXPECTED_EOF", "201");
      assertThat(rows).extracting(WireLog.Row::key).containsOnly(rows.get(0).key());
    }
  }
}
