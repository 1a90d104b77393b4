package dev.saferetry.examples;

import static org.assertj.core.api.Assertions.assertThat;

import dev.saferetry.CallResult;
import dev.saferetry.RequestOptions;
import dev.saferetry.SafeRetryClient;
import dev.saferetry.payments.Charge;
import dev.saferetry.payments.ChargeCreateParams;
import dev.saferetry.payments.PaymentsClient;
import dev.saferetry.testing.FakeTime;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.propagation.W3CTraceContextPropagator;
import io.opentelemetry.context.Scope;
import io.opentelemetry.context.propagation.ContextPropagators;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import mockwebserver3.MockResponse;
import mockwebserver3.MockWebServer;
import mockwebserver3.RecordedRequest;
import okhttp3.OkHttpClient;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The tracing example against a server that answers 503 once: the trace as exported, the wire. */
class OpenTelemetryTracingTest {
  static final String CHARGE =
      "{\"id\":\"ch_otel\",\"object\":\"charge\",\"amount\":5600,\"currency\":\"eur\","
          + "\"status\":\"succeeded\",\"created\":1700000000}";

  final MockWebServer server = new MockWebServer();
  final InMemorySpanExporter spans = InMemorySpanExporter.create();
  OpenTelemetrySdk otel;

  @BeforeEach
  void start() throws Exception {
    server.start();
    otel =
        OpenTelemetrySdk.builder()
            .setTracerProvider(
                SdkTracerProvider.builder()
                    .addSpanProcessor(SimpleSpanProcessor.create(spans))
                    .build())
            .setPropagators(ContextPropagators.create(W3CTraceContextPropagator.getInstance()))
            .build();
  }

  @AfterEach
  void stop() {
    otel.close();
    server.close();
  }

  private static MockResponse answer(int code, String body) {
    return new MockResponse.Builder()
        .code(code)
        .setHeader("Content-Type", "application/json")
        .body(body)
        .build();
  }

  @Test
  void oneCallSpanWithAChildSpanPerAttemptAndEachAttemptCarriesItsOwnTraceparent()
      throws Exception {
    server.enqueue(answer(503, "{\"error\":{\"type\":\"api_error\"}}"));
    server.enqueue(answer(201, CHARGE));
    FakeTime time = new FakeTime();

    OpenTelemetryTracing.run(Rows.client(server.url("/").toString(), time), otel);

    List<SpanData> exported = spans.getFinishedSpanItems();
    assertThat(exported).hasSize(3);
    SpanData call =
        exported.stream().filter(s -> s.getName().equals("charge order 1008")).findFirst().get();
    // Attempt spans are named "<operation> attempt <n>": sorted by name, they are in order.
    List<SpanData> attempts =
        exported.stream()
            .filter(s -> s != call)
            .sorted((a, b) -> a.getName().compareTo(b.getName()))
            .toList();
    assertThat(call.getParentSpanContext().isValid()).isFalse();
    assertThat(attempts)
        .allSatisfy(
            a -> {
              assertThat(a.getParentSpanId()).isEqualTo(call.getSpanId());
              assertThat(a.getTraceId()).isEqualTo(call.getTraceId());
              assertThat(a.getKind()).isEqualTo(SpanKind.CLIENT);
            });
    assertThat(attempts)
        .extracting(
            a ->
                a.getAttributes()
                    .get(
                        io.opentelemetry.api.common.AttributeKey.longKey(
                            "http.response.status_code")))
        .containsExactly(503L, 201L);

    RecordedRequest first = server.takeRequest(1, TimeUnit.SECONDS);
    RecordedRequest second = server.takeRequest(1, TimeUnit.SECONDS);
    assertThat(first.getHeaders().get("traceparent"))
        .startsWith("00-" + call.getTraceId() + "-" + attempts.get(0).getSpanId() + "-");
    assertThat(second.getHeaders().get("traceparent"))
        .startsWith("00-" + call.getTraceId() + "-" + attempts.get(1).getSpanId() + "-");
    assertThat(attempts.get(0).getSpanId()).isNotEqualTo(attempts.get(1).getSpanId());
    // Still the same intent on the wire: one key for both attempts.
    assertThat(second.getHeaders().get("Idempotency-Key"))
        .isEqualTo(first.getHeaders().get("Idempotency-Key"))
        .isNotNull();
  }

  @Test
  void anAsyncCallsAttemptsRunOnOtherThreadsAndStillJoinTheCallersSpan() throws Exception {
    server.enqueue(answer(503, "{\"error\":{\"type\":\"api_error\"}}"));
    server.enqueue(answer(201, CHARGE));
    AttemptTracing tracing = new AttemptTracing(otel);
    OkHttpClient http = new OkHttpClient.Builder().addInterceptor(tracing.interceptor()).build();
    Span call = otel.getTracer("test").spanBuilder("async order").startSpan();
    try (SafeRetryClient client =
        Rows.client(server.url("/").toString(), new FakeTime())
            .okHttpClient(http)
            .listener(tracing)
            .build()) {
      CompletableFuture<CallResult<Charge>> future;
      Scope scope = call.makeCurrent(); // the call is started inside the span's scope
      try {
        future =
            new PaymentsClient(client)
                .charges()
                .createAsync(
                    ChargeCreateParams.builder()
                        .amount(5600L)
                        .currency("eur")
                        .description("async order")
                        .build(),
                    RequestOptions.none().withIntentId("order-async/charge"));
      } finally {
        scope.close();
      }
      assertThat(future.get(10, TimeUnit.SECONDS).attempts()).hasSize(2);
    } finally {
      call.end();
      http.dispatcher().executorService().shutdown();
    }
    List<SpanData> attempts =
        spans.getFinishedSpanItems().stream()
            .filter(s -> s.getName().contains(" attempt "))
            .toList();
    assertThat(attempts)
        .hasSize(2)
        .allSatisfy(
            a -> {
              assertThat(a.getParentSpanId()).isEqualTo(call.getSpanContext().getSpanId());
              assertThat(a.getTraceId()).isEqualTo(call.getSpanContext().getTraceId());
            });
    RecordedRequest first = server.takeRequest(1, TimeUnit.SECONDS);
    assertThat(first.getHeaders().get("traceparent"))
        .startsWith("00-" + call.getSpanContext().getTraceId() + "-");
  }
}
