package dev.saferetry.examples;

import static org.assertj.core.api.Assertions.assertThat;

import dev.saferetry.examples.demo.Report;
import dev.saferetry.examples.demo.Scenarios;
import dev.saferetry.testing.FakeTime;
import org.junit.jupiter.api.Test;

class QuickStartTest {
  @Test
  void createsOneChargeWithAFreshUuidKeyAndReadsItBackWithoutOne() throws Exception {
    FakeTime time = new FakeTime();
    Report report = new Scenarios(time, time).quickStart();

    assertThat(report.sideEffects()).isEqualTo(1);
    assertThat(report.passed()).isTrue();
    assertThat(Rows.results(report)).containsExactly("201", "200");
    assertThat(Rows.keys(report).get(0))
        .matches("[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}");
    assertThat(Rows.keys(report).get(1)).isEqualTo("-"); // the GET carries no key
    assertThat(time.sleeps()).isEmpty();
  }
}
