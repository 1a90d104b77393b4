package dev.saferetry.examples.support;

import dev.saferetry.call.Attempt;
import dev.saferetry.event.AttemptFinished;
import dev.saferetry.event.AttemptStarted;
import dev.saferetry.event.CallFinished;
import dev.saferetry.event.CallStarted;
import dev.saferetry.event.SafeRetryListener;
import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.propagation.TextMapPropagator;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import okhttp3.Interceptor;
import okhttp3.Request;

/**
 * Part of the {@link dev.saferetry.examples.OpenTelemetryTracing} example, to copy into a service:
 * a listener that opens one client span per attempt, as a child of the span current when the call
 * started, and an OkHttp interceptor that puts that attempt span's context on the attempt's request
 * ({@code traceparent} with W3C propagation). Each attempt is its own OkHttp call, so the
 * interceptor sees each one; it finds the attempt's span through the {@link AttemptStarted} the SDK
 * tags every attempt's request with.
 *
 * <p>The parent is the span current when the call started: {@code onCallStart} runs on the caller's
 * thread for {@code execute} and {@code executeAsync} alike, and its context is kept by call id, so
 * attempts that run on the SDK's executor (and retries after a timer) still join the caller's
 * trace.
 *
 * <p>Thread-safe.
 */
public final class SafeRetryTracing implements SafeRetryListener {
  private final Tracer tracer;
  private final TextMapPropagator propagator;
  private final Map<String, Span> attempts = new ConcurrentHashMap<>();
  private final Map<String, Context> parents = new ConcurrentHashMap<>();

  /** Creates spans with {@code otel}'s tracer and injects context with its propagators. */
  public SafeRetryTracing(OpenTelemetry otel) {
    this.tracer = otel.getTracer("dev.saferetry.examples");
    this.propagator = otel.getPropagators().getTextMapPropagator();
  }

  @Override
  public void onCallStart(CallStarted e) {
    parents.put(e.callId(), Context.current());
  }

  @Override
  public void onCallEnd(CallFinished e) {
    parents.remove(e.callId());
  }

  @Override
  public void onAttemptStart(AttemptStarted e) {
    Span span =
        tracer
            .spanBuilder(e.operation() + " attempt " + e.attempt())
            .setSpanKind(SpanKind.CLIENT)
            .setParent(parents.getOrDefault(e.callId(), Context.current()))
            .setAttribute("saferetry.attempt", e.attempt())
            .setAttribute("saferetry.intent_id", String.valueOf(e.intentId()))
            .setAttribute("saferetry.idempotency_key", String.valueOf(e.key()))
            .startSpan();
    attempts.put(e.requestId(), span);
  }

  @Override
  public void onAttemptEnd(AttemptFinished e) {
    Attempt a = e.attempt();
    Span span = attempts.remove(a.requestId());
    if (span == null) {
      return;
    }
    if (a.failure() != null) {
      span.setStatus(StatusCode.ERROR, a.failure().name());
    } else {
      span.setAttribute("http.response.status_code", a.status());
      if (a.status() >= 500) {
        span.setStatus(StatusCode.ERROR);
      }
    }
    span.end();
  }

  /** Returns the interceptor to add to the client's {@code OkHttpClient}. */
  public Interceptor interceptor() {
    return chain -> {
      AttemptStarted attempt = chain.request().tag(AttemptStarted.class);
      Span span = attempt == null ? null : attempts.get(attempt.requestId());
      if (span == null) {
        return chain.proceed(chain.request());
      }
      Request.Builder request = chain.request().newBuilder();
      propagator.inject(Context.current().with(span), request, Request.Builder::header);
      return chain.proceed(request.build());
    };
  }
}
