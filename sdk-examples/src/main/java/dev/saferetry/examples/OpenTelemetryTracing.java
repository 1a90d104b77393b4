package dev.saferetry.examples;

import dev.saferetry.CallResult;
import dev.saferetry.RequestOptions;
import dev.saferetry.SafeRetryClient;
import dev.saferetry.SafeRetryClientBuilder;
import dev.saferetry.payments.Charge;
import dev.saferetry.payments.ChargeCreateParams;
import dev.saferetry.payments.PaymentsClient;
import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.api.trace.propagation.W3CTraceContextPropagator;
import io.opentelemetry.context.Scope;
import io.opentelemetry.context.propagation.ContextPropagators;
import io.opentelemetry.exporter.logging.LoggingSpanExporter;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import okhttp3.OkHttpClient;

/**
 * Traces with OpenTelemetry: a span for the call, a child span per attempt, each attempt's request
 * carrying its own {@code traceparent}. {@link AttemptTracing}, copied with this file, is the
 * listener and interceptor doing it; the SDK does not depend on OpenTelemetry.
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
    AttemptTracing tracing = new AttemptTracing(otel);
    OkHttpClient http = new OkHttpClient.Builder().addInterceptor(tracing.interceptor()).build();
    try (SafeRetryClient client = builder.okHttpClient(http).listener(tracing).build()) {
      Span call = otel.getTracer("acme.shop").spanBuilder("charge order 1008").startSpan();
      try (Scope scope = call.makeCurrent()) { // the attempts' spans are this span's children
        CallResult<Charge> charge =
            new PaymentsClient(client)
                .charges()
                .create(
                    ChargeCreateParams.builder().amount(5600L).currency("eur").build(),
                    RequestOptions.none().withIntentId("order-1008/charge"));
        call.setAttribute("saferetry.attempts", charge.attempts().size());
        return charge;
      } catch (RuntimeException e) {
        call.recordException(e);
        call.setStatus(StatusCode.ERROR);
        throw e;
      } finally {
        call.end();
      }
    } finally {
      http.dispatcher().executorService().shutdown();
      http.connectionPool().evictAll();
    }
  }

  /** {@code [base-url]}, by default port 8080. Spans are logged; a service exports them (OTLP). */
  public static void main(String[] args) {
    try (OpenTelemetrySdk otel =
        OpenTelemetrySdk.builder()
            .setTracerProvider(
                SdkTracerProvider.builder()
                    .addSpanProcessor(SimpleSpanProcessor.create(LoggingSpanExporter.create()))
                    .build())
            .setPropagators(ContextPropagators.create(W3CTraceContextPropagator.getInstance()))
            .build()) {
      run(
          SafeRetryClient.builder()
              .baseUrl(args.length > 0 ? args[0] : "http://127.0.0.1:8080")
              .apiKey(System.getenv().getOrDefault("PAYMENTS_API_KEY", "sk_test_demo")),
          otel);
    }
  }
}
