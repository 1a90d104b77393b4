package dev.saferetry.examples;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

class DemoTest {
  @Test
  @Timeout(120)
  void everyScenarioOfTheTourPasses() {
    FakeTime time = new FakeTime();
    Output out = new Output();

    List<Report> reports = Demo.tour(time.clock(), time, out.stream);
    System.out.print(out.text()); // kept in surefire-reports/*-output.txt for diagnosis

    assertThat(reports)
        .extracting(Report::scenario)
        .containsExactly(
            "quick-start",
            "lost-response",
            "outage",
            "crash-recover",
            "provider-profiles",
            "async",
            "own-parts");
    assertThat(reports)
        .allSatisfy(
            r -> {
              assertThat(r.verdict()).startsWith("PASS");
              assertThat(r.sideEffects()).isEqualTo(r.intended());
            });
    assertThat(out.text())
        .contains("intended charges: 20, server side effects: 20")
        .doesNotContain("scenario failed");
  }
}
