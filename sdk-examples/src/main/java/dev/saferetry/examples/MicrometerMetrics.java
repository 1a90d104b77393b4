package dev.saferetry.examples;

import dev.saferetry.CallResult;
import dev.saferetry.RequestOptions;
import dev.saferetry.SafeRetryClient;
import dev.saferetry.SafeRetryClientBuilder;
import dev.saferetry.event.AttemptFinished;
import dev.saferetry.event.CallFinished;
import dev.saferetry.event.RetryScheduled;
import dev.saferetry.event.SafeRetryListener;
import dev.saferetry.payments.Charge;
import dev.saferetry.payments.ChargeCreateParams;
import dev.saferetry.payments.PaymentsClient;
import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;

/**
 * Metrics with Micrometer: {@link Meters}, a listener to copy, times attempts and calls and counts
 * retries; gauges show the breaker's state. Micrometer is the examples' dependency, not the SDK's.
 * With no argument it charges a reference server on port 8080.
 */
public final class MicrometerMetrics {
  private MicrometerMetrics() {}

  /** The client's events as meters in {@code r}, all tagged with {@code t}. Thread-safe. */
  public record Meters(MeterRegistry r, Tags t) implements SafeRetryListener {
    @Override
    public void onAttemptEnd(AttemptFinished e) {
      var failure = e.attempt().failure(); // a transport failure, or the HTTP status
      String result = failure != null ? failure.name() : String.valueOf(e.attempt().status());
      r.timer("saferetry.attempts", t.and("operation", e.operation(), "result", result))
          .record(e.attempt().duration());
    }

    @Override
    public void onRetryScheduled(RetryScheduled e) {
      var tags = t.and("operation", e.operation()); // and whether the server set the delay:
      r.counter("saferetry.retries", tags.and("server_hint", "" + e.serverHint())).increment();
    }

    @Override
    public void onCallEnd(CallFinished e) {
      String reason = e.reason() == null ? "none" : e.reason().name();
      var tags = t.and("operation", e.operation(), "outcome", e.outcome().name());
      r.timer("saferetry.calls", tags.and("reason", reason)).record(e.duration());
    }
  }

  /** Charges order 1007 with the client's events feeding {@code registry}. */
  public static CallResult<Charge> run(SafeRetryClientBuilder builder, MeterRegistry registry) {
    Meters meters = new Meters(registry, Tags.of("client", "payments"));
    try (SafeRetryClient client = builder.listener(meters).build()) {
      CircuitBreaker breaker = client.circuitBreaker();
      for (CircuitBreaker.State s : CircuitBreaker.State.values()) { // 1 for the current state
        Gauge.builder("saferetry.breaker.state", breaker, b -> b.getState() == s ? 1 : 0)
            .tags("client", "payments", "state", s.name())
            .strongReference(true)
            .register(registry);
      }
      var order = RequestOptions.none().withIntentId("order-1007/charge");
      var charge = ChargeCreateParams.builder().amount(3100L).currency("eur").build();
      var result = new PaymentsClient(client).charges().create(charge, order);
      registry.getMeters().forEach(m -> System.out.println(m.getId() + " " + m.measure()));
      return result;
    }
  }

  /** {@code [base-url]}: a payment API, by default a reference server on port 8080. */
  public static void main(String[] args) {
    String url = args.length > 0 ? args[0] : "http://127.0.0.1:8080";
    String key = System.getenv().getOrDefault("PAYMENTS_API_KEY", "sk_test_demo");
    var registry = new SimpleMeterRegistry(); // yours: Prometheus, OTLP, ...
    run(SafeRetryClient.builder().baseUrl(url).apiKey(key), registry);
  }
}
