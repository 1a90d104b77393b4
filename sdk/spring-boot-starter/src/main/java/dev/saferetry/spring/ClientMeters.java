package dev.saferetry.spring;

import dev.saferetry.call.Attempt;
import dev.saferetry.event.AttemptFinished;
import dev.saferetry.event.CallFinished;
import dev.saferetry.event.RetryScheduled;
import dev.saferetry.event.SafeRetryListener;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.util.Locale;

/**
 * One client's meters in the application's registry, every one tagged {@code client}:
 *
 * <ul>
 *   <li>{@code saferetry.client.calls} (timer): calls by {@code operation}, {@code outcome}
 *       (succeeded, failed, unknown) and {@code reason};
 *   <li>{@code saferetry.client.attempts} (timer): attempts by {@code operation} and {@code result}
 *       (the status, or the transport failure);
 *   <li>{@code saferetry.client.retries} (counter): retries by {@code operation} and {@code
 *       server_hint} (whether a Retry-After set the wait).
 * </ul>
 *
 * Tags never carry keys, intent ids or request ids: their number stays bounded. The breaker's
 * meters are resilience4j's own when the application binds its registry.
 *
 * <p>This class is thread-safe.
 */
final class ClientMeters implements SafeRetryListener {
  private final String client;
  private final MeterRegistry registry;

  ClientMeters(String client, MeterRegistry registry) {
    this.client = client;
    this.registry = registry;
  }

  @Override
  public void onAttemptEnd(AttemptFinished e) {
    Attempt a = e.attempt();
    Timer.builder("saferetry.client.attempts")
        .description("Attempts sent by a SafeRetry client")
        .tags("client", client, "operation", e.operation())
        .tag("result", a.failure() != null ? lower(a.failure().name()) : String.valueOf(a.status()))
        .register(registry)
        .record(a.duration());
  }

  @Override
  public void onRetryScheduled(RetryScheduled e) {
    Counter.builder("saferetry.client.retries")
        .description("Retries scheduled by a SafeRetry client")
        .tags("client", client, "operation", e.operation())
        .tag("server_hint", String.valueOf(e.serverHint()))
        .register(registry)
        .increment();
  }

  @Override
  public void onCallEnd(CallFinished e) {
    Timer.builder("saferetry.client.calls")
        .description("Calls made by a SafeRetry client, retries included")
        .tags("client", client, "operation", e.operation(), "outcome", lower(e.outcome().name()))
        .tag("reason", e.reason() == null ? "none" : lower(e.reason().name()))
        .register(registry)
        .record(e.duration());
  }

  private static String lower(String s) {
    return s.toLowerCase(Locale.ROOT);
  }
}
