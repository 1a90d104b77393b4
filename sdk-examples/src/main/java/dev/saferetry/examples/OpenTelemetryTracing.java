package dev.saferetry.examples;

import dev.saferetry.CallResult;
import dev.saferetry.RequestOptions;
import dev.saferetry.SafeRetryClient;
import dev.saferetry.SafeRetryClientBuilder;
import dev.saferetry.examples.support.LoggedSpans;
import dev.saferetry.examples.support.SafeRetryTracing;
import dev.saferetry.payments.Charge;
import dev.saferetry.payments.ChargeCreateParams;
import dev.saferetry.payments.PaymentsClient;
import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.context.Scope;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import okhttp3.OkHttpClient;

/**
 * Traces with OpenTelemetry: one span for the call, one child span per attempt, and each attempt's
 * request carrying its own {@code traceparent}, so the server's spans hang under the attempt that
 * reached it. {@link SafeRetryTracing} is the listener and interceptor doing it. OpenTelemetry is a
 * dependency of the examples, never of the SDK.
 *
 * <pre>
 * mvn -B -q -pl sdk-examples -am compile exec:java \
 *     -Dexec.mainClass=dev.saferetry.examples.OpenTelemetryTracing -Dexec.args=http://127.0.0.1:8080
 * </pre>
 */
public final class OpenTelemetryTracing {
  private OpenTelemetryTracing() {}

  /** Charges order 1008 inside a call span, with {@code otel} tracing every attempt. */
  public static CallResult<Charge> run(SafeRetryClientBuilder builder, OpenTelemetry otel) {
    SafeRetryTracing tracing = new SafeRetryTracing(otel);
    OkHttpClient http = new OkHttpClient.Builder().addInterceptor(tracing.interceptor()).build();
    try (SafeRetryClient client = builder.okHttpClient(http).listener(tracing).build()) {
      Span call = otel.getTracer("acme.shop").spanBuilder("charge order 1008").startSpan();
      Scope scope = call.makeCurrent(); // the attempts' spans are this span's children
      try {
        CallResult<Charge> charge =
            new PaymentsClient(client)
                .charges()
                .create(
                    ChargeCreateParams.builder()
                        .amount(5600L)
                        .currency("eur")
                        .description("order 1008")
                        .build(),
                    RequestOptions.none().withIntentId("order-1008/charge"));
        call.setAttribute("saferetry.attempts", charge.attempts().size());
        return charge;
      } catch (RuntimeException e) {
        call.recordException(e);
        call.setStatus(StatusCode.ERROR);
        throw e;
      } finally {
        scope.close();
        call.end();
      }
    } finally {
      http.dispatcher().executorService().shutdown();
      http.connectionPool().evictAll();
    }
  }

  /**
   * {@code [base-url]}: a payment API, by default a reference server on port 8080. Spans are
   * logged; a service exports them (OTLP) instead.
   */
  public static void main(String[] args) {
    try (OpenTelemetrySdk otel = LoggedSpans.openTelemetry()) {
      run(
          SafeRetryClient.builder()
              .baseUrl(args.length > 0 ? args[0] : "http://127.0.0.1:8080")
              .apiKey(System.getenv().getOrDefault("PAYMENTS_API_KEY", "sk_test_demo")),
          otel);
    }
  }
}
