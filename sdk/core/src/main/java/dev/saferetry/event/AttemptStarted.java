package dev.saferetry.event;

import dev.saferetry.idempotency.IdempotencyKey;

/**
 * An attempt is about to be sent.
 *
 * <p>The same object is the attempt's OkHttp request tag, so an interceptor of your {@code
 * OkHttpClient} sees which call and attempt a request belongs to, for example to add a tracing
 * header per attempt:
 *
 * <pre>{@code
 * Interceptor traceparent = chain -> {
 *   AttemptStarted attempt = chain.request().tag(AttemptStarted.class);
 *   Request.Builder r = chain.request().newBuilder();
 *   if (attempt != null) {
 *     r.header("traceparent", spans.traceparentOf(attempt.requestId()));
 *   }
 *   return chain.proceed(r.build());
 * };
 * }</pre>
 *
 * <p>Instances are immutable and thread-safe.
 *
 * @param callId the id of the call's {@link CallStarted}
 * @param operation the operation name
 * @param intentId the intent id, or {@code null}
 * @param key the idempotency key, or {@code null} for an operation without one
 * @param attempt 1 for the first attempt
 * @param requestId the request id this attempt carries
 */
public record AttemptStarted(
    String callId,
    String operation,
    String intentId,
    IdempotencyKey key,
    int attempt,
    String requestId) {}
