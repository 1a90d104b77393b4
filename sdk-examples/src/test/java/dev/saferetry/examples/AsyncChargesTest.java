package dev.saferetry.examples;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

class AsyncChargesTest {
  @Test
  void everyConcurrentIntentMakesExactlyOneChargeWithItsOwnKey() {
    FakeTime time = new FakeTime();
    Output out = new Output();
    try (Sandbox sandbox = Sandbox.inProcess(b -> b)) {
      Report report = AsyncCharges.run(sandbox, time.clock(), time, out.stream);

      assertThat(report.sideEffects()).isEqualTo(AsyncCharges.ORDERS);
      assertThat(report.passed()).isTrue();
      // The report lists the intents whose response was lost: two attempts each, one key each.
      Map<String, List<WireLog.Row>> retried =
          Output.attempts(report).stream().collect(Collectors.groupingBy(WireLog.Row::intentId));
      assertThat(retried).hasSize(AsyncCharges.LOST_RESPONSES);
      retried
          .values()
          .forEach(
              rows -> {
                assertThat(rows)
                    .extracting(WireLog.Row::result)
                    .containsExactly("UNEXPECTED_EOF", "201");
                assertThat(rows).extracting(WireLog.Row::key).containsOnly(rows.get(0).key());
              });
      assertThat(out.text())
          .contains(
              AsyncCharges.ORDERS
                  + " of "
                  + AsyncCharges.ORDERS
                  + " charges succeeded with "
                  + AsyncCharges.ORDERS
                  + " distinct keys in "
                  + (AsyncCharges.ORDERS + AsyncCharges.LOST_RESPONSES)
                  + " attempts");
    }
  }
}
