package dev.saferetry.examples;

import dev.saferetry.CallResult;
import dev.saferetry.RequestOptions;
import dev.saferetry.SafeRetryClient;
import dev.saferetry.SafeRetryClientBuilder;
import dev.saferetry.examples.support.SafeRetryMeterBinder;
import dev.saferetry.payments.Charge;
import dev.saferetry.payments.ChargeCreateParams;
import dev.saferetry.payments.PaymentsClient;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;

/**
 * Metrics with Micrometer: bind a {@link SafeRetryMeterBinder} to the service's registry, give it
 * to the client as its listener and let it watch the client's circuit breaker. Attempts, retries,
 * give-ups and the breaker's state then show up next to the service's other meters. Micrometer is a
 * dependency of the examples, never of the SDK.
 *
 * <pre>
 * mvn -B -q -pl sdk-examples -am compile exec:java \
 *     -Dexec.mainClass=dev.saferetry.examples.MicrometerMetrics -Dexec.args=http://127.0.0.1:8080
 * </pre>
 */
public final class MicrometerMetrics {
  private MicrometerMetrics() {}

  /** Charges order 1007 with the client's events feeding {@code registry}. */
  public static CallResult<Charge> run(SafeRetryClientBuilder builder, MeterRegistry registry) {
    SafeRetryMeterBinder metrics = new SafeRetryMeterBinder("payments");
    metrics.bindTo(registry); // before the first call
    try (SafeRetryClient client = builder.listener(metrics).build()) {
      metrics.watch(client.circuitBreaker()); // and its breaker's state changes
      CallResult<Charge> charge =
          new PaymentsClient(client)
              .charges()
              .create(
                  ChargeCreateParams.builder()
                      .amount(3100L)
                      .currency("eur")
                      .description("order 1007")
                      .build(),
                  RequestOptions.none().withIntentId("order-1007/charge"));
      for (Meter meter : registry.getMeters()) {
        for (var m : meter.measure()) {
          if (m.getValue() != 0) {
            System.out.printf(
                "%s %s %s=%s%n",
                meter.getId().getName(), meter.getId().getTags(), m.getStatistic(), m.getValue());
          }
        }
      }
      return charge;
    }
  }

  /** {@code [base-url]}: a payment API, by default a reference server on port 8080. */
  public static void main(String[] args) {
    run(
        SafeRetryClient.builder()
            .baseUrl(args.length > 0 ? args[0] : "http://127.0.0.1:8080")
            .apiKey(System.getenv().getOrDefault("PAYMENTS_API_KEY", "sk_test_demo")),
        new SimpleMeterRegistry()); // yours: Prometheus, OTLP, ...
  }
}
