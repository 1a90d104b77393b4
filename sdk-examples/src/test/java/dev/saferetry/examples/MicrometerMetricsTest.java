package dev.saferetry.examples;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.saferetry.SafeRetryClientBuilder;
import dev.saferetry.error.SafeRetryException;
import dev.saferetry.examples.demo.Sandbox;
import dev.saferetry.resilience.BreakerPolicy;
import dev.saferetry.resilience.RetryPolicy;
import dev.saferetry.testing.FakeTime;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import mockwebserver3.MockResponse;
import mockwebserver3.MockWebServer;
import org.junit.jupiter.api.Test;

class MicrometerMetricsTest {
  final MeterRegistry registry = new SimpleMeterRegistry();

  double gauge(String state) {
    return registry.get("saferetry.breaker.state").tag("state", state).gauge().value();
  }

  @Test
  void aLostResponseShowsAsTwoTimedAttemptsAndOneRetry() {
    FakeTime time = new FakeTime();
    try (Sandbox api = Sandbox.start()) {
      api.dropNextResponse();
      MicrometerMetrics.run(Rows.client(api, time), registry);
      assertThat(api.sideEffects()).isEqualTo(1);
    }

    assertThat(registry.get("saferetry.attempts").tag("result", "UNEXPECTED_EOF").timer().count())
        .isEqualTo(1);
    assertThat(registry.get("saferetry.attempts").tag("result", "201").timer().count())
        .isEqualTo(1);
    assertThat(registry.get("saferetry.attempts").tags("client", "payments").timers())
        .allSatisfy(t -> assertThat(t.getId().getTag("operation")).isNotBlank());
    assertThat(registry.get("saferetry.retries").tag("server_hint", "false").counter().count())
        .isEqualTo(1.0);
    assertThat(registry.get("saferetry.calls").tag("outcome", "SUCCEEDED").timer().count())
        .isEqualTo(1);
    assertThat(registry.find("saferetry.calls").tag("outcome", "UNKNOWN").timer()).isNull();
    assertThat(gauge("CLOSED")).isEqualTo(1.0);
    assertThat(gauge("OPEN")).isZero();
  }

  @Test
  void anOutageTimesTheCallAsUnknownAndShowsTheOpenBreaker() throws Exception {
    FakeTime time = new FakeTime();
    try (MockWebServer server = new MockWebServer()) {
      for (int i = 0; i < 2; i++) {
        server.enqueue(new MockResponse.Builder().code(503).body("{}").build());
      }
      server.start();
      SafeRetryClientBuilder client =
          Rows.client(server.url("/").toString(), time)
              .retryPolicy(RetryPolicy.defaults().withMaxAttempts(2))
              .breakerPolicy(
                  BreakerPolicy.defaults()
                      .withSlidingWindowSize(2)
                      .withMinimumCalls(2)
                      .withWaitInOpenState(Duration.ofMinutes(1))
                      .withHalfOpenProbes(1));
      assertThatThrownBy(() -> MicrometerMetrics.run(client, registry))
          .isInstanceOf(SafeRetryException.class);
      assertThat(server.getRequestCount()).isEqualTo(2);
    }

    assertThat(registry.get("saferetry.attempts").tag("result", "503").timer().count())
        .isEqualTo(2);
    assertThat(
            registry
                .get("saferetry.calls")
                .tags("outcome", "UNKNOWN", "reason", "RETRIES_EXHAUSTED")
                .timer()
                .count())
        .isEqualTo(1);
    assertThat(gauge("OPEN")).isEqualTo(1.0);
    assertThat(gauge("CLOSED")).isZero();
  }
}
