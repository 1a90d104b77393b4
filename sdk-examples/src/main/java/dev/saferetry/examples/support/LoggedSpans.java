package dev.saferetry.examples.support;

import io.opentelemetry.api.trace.propagation.W3CTraceContextPropagator;
import io.opentelemetry.context.propagation.ContextPropagators;
import io.opentelemetry.exporter.logging.LoggingSpanExporter;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;

/**
 * The OpenTelemetry set-up of the tracing example: W3C trace context, and every span written to the
 * log as it ends. A service configures its own SDK and exports over OTLP instead.
 */
public final class LoggedSpans {
  private LoggedSpans() {}

  /** {@return an OpenTelemetry SDK that logs its spans; close it to flush them} */
  public static OpenTelemetrySdk openTelemetry() {
    return OpenTelemetrySdk.builder()
        .setTracerProvider(
            SdkTracerProvider.builder()
                .addSpanProcessor(SimpleSpanProcessor.create(LoggingSpanExporter.create()))
                .build())
        .setPropagators(ContextPropagators.create(W3CTraceContextPropagator.getInstance()))
        .build();
  }
}
