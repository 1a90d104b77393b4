package dev.saferetry.examples.demo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.saferetry.testing.FakeTime;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

class DemoTest {
  @Test
  @Timeout(180)
  void everyScenarioOfTheTourPasses() {
    FakeTime time = new FakeTime();
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8);

    List<Report> reports = Demo.tour(List.of(), time, time, out);
    String text = bytes.toString(StandardCharsets.UTF_8);
    System.out.print(text); // kept in surefire-reports/*-output.txt for diagnosis

    assertThat(reports)
        .extracting(Report::scenario)
        .containsExactly(
            "quick-start",
            "lost-response",
            "outage",
            "crash-recover",
            "outbox",
            "provider-profiles",
            "stripe-style",
            "async",
            "own-parts");
    assertThat(reports)
        .allSatisfy(
            r -> {
              assertThat(r.verdict()).startsWith("PASS");
              assertThat(r.sideEffects()).isEqualTo(r.intended());
            });
    assertThat(text)
        .contains("intended charges: 20, server side effects: 20")
        .doesNotContain("scenario failed");
  }

  @Test
  void namedScenariosRunAloneAndAnUnknownNameIsRefused() {
    FakeTime time = new FakeTime();
    PrintStream out = new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8);
    assertThat(Demo.tour(List.of("lost-response"), time, time, out))
        .extracting(Report::scenario)
        .containsExactly("lost-response");
    assertThatThrownBy(() -> Demo.tour(List.of("nope"), time, time, out))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("lost-response");
  }
}
