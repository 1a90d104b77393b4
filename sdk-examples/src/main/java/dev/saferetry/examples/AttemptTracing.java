package dev.saferetry.examples;

import dev.saferetry.event.AttemptFinished;
import dev.saferetry.event.AttemptStarted;
import dev.saferetry.event.CallFinished;
import dev.saferetry.event.CallStarted;
import dev.saferetry.event.SafeRetryListener;
import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.context.Context;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import okhttp3.Interceptor;

/**
 * Copy with {@link OpenTelemetryTracing}: a listener opening a client span per attempt under the
 * span current at the call's start (kept by call id: async attempts join the caller's trace), and
 * an OkHttp interceptor putting the attempt's span on its request ({@code traceparent}).
 */
public final class AttemptTracing implements SafeRetryListener {
  private final OpenTelemetry otel;
  private final Map<String, Span> attempts = new ConcurrentHashMap<>();
  private final Map<String, Context> parents = new ConcurrentHashMap<>();

  public AttemptTracing(OpenTelemetry otel) {
    this.otel = otel;
  }

  @Override
  public void onCallStart(CallStarted e) { // on the caller's thread, sync and async alike
    parents.put(e.callId(), Context.current());
  }

  @Override
  public void onCallEnd(CallFinished e) {
    parents.remove(e.callId());
  }

  @Override
  public void onAttemptStart(AttemptStarted e) {
    attempts.put(
        e.requestId(),
        otel.getTracer("dev.saferetry.examples")
            .spanBuilder(e.operation() + " attempt " + e.attempt())
            .setSpanKind(SpanKind.CLIENT)
            .setParent(parents.getOrDefault(e.callId(), Context.current()))
            .setAttribute("saferetry.attempt", e.attempt())
            .setAttribute("saferetry.intent_id", String.valueOf(e.intentId()))
            .startSpan());
  }

  @Override
  public void onAttemptEnd(AttemptFinished e) {
    var a = e.attempt();
    Span span = attempts.remove(a.requestId()); // onAttemptStart put it: same request id
    if (a.failure() != null) {
      span.setStatus(StatusCode.ERROR, a.failure().name());
    } else {
      span.setAttribute("http.response.status_code", a.status());
      span.setStatus(a.status() >= 500 ? StatusCode.ERROR : StatusCode.UNSET);
    }
    span.end();
  }

  /** {@return the interceptor to add to the client's {@code OkHttpClient}} */
  public Interceptor interceptor() {
    return chain -> {
      AttemptStarted attempt = chain.request().tag(AttemptStarted.class);
      Span span =
          attempts.getOrDefault(attempt == null ? "" : attempt.requestId(), Span.getInvalid());
      okhttp3.Request.Builder request = chain.request().newBuilder();
      otel.getPropagators() // an invalid span injects nothing
          .getTextMapPropagator()
          .inject(Context.current().with(span), request, okhttp3.Request.Builder::header);
      return chain.proceed(request.build());
    };
  }
}
