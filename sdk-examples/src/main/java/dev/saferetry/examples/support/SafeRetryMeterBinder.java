package dev.saferetry.examples.support;

import dev.saferetry.call.Attempt;
import dev.saferetry.event.AttemptFinished;
import dev.saferetry.event.CallFinished;
import dev.saferetry.event.RetryScheduled;
import dev.saferetry.event.SafeRetryListener;
import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.binder.MeterBinder;
import io.micrometer.core.instrument.composite.CompositeMeterRegistry;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Part of the {@link dev.saferetry.examples.MicrometerMetrics} example, to copy into a service: a
 * Micrometer {@link MeterBinder} that is also the client's listener. It publishes
 *
 * <ul>
 *   <li>{@code saferetry.attempts}: a timer per operation and result (HTTP status or transport
 *       failure), one recording per attempt on the wire;
 *   <li>{@code saferetry.retries}: a counter per operation and whether the server set the delay;
 *   <li>{@code saferetry.calls}: a timer per operation, outcome and reason ({@code none} for a
 *       result), one recording per call of its total time, waits between attempts included;
 *   <li>{@code saferetry.breaker.state}: one gauge per breaker state ({@code CLOSED}, {@code OPEN},
 *       {@code HALF_OPEN}, {@code DISABLED}), 1 for the current one, once it {@linkplain #watch
 *       watches} the client's circuit breaker.
 * </ul>
 *
 * Every meter is tagged {@code client}. Bind it before the client's first call: events before that
 * are not counted. Thread-safe, as listeners must be.
 */
public final class SafeRetryMeterBinder implements MeterBinder, SafeRetryListener {
  private final String client;
  private static final List<String> STATES = List.of("CLOSED", "OPEN", "HALF_OPEN", "DISABLED");
  private final AtomicReference<String> breaker = new AtomicReference<>("CLOSED");
  // Meters are made here and reach every registry bound to this one; none bound: they count
  // nothing.
  private final CompositeMeterRegistry meters = new CompositeMeterRegistry();

  /** Creates a binder whose meters carry {@code client} as their {@code client} tag. */
  public SafeRetryMeterBinder(String client) {
    this.client = client;
    for (String state : STATES) {
      Gauge.builder("saferetry.breaker.state", breaker, b -> b.get().equals(state) ? 1 : 0)
          .description("1 for the circuit breaker's current state, 0 for the others")
          .tags("client", client, "state", state)
          .strongReference(true) // the gauge keeps the state alive, however long the binder lives
          .register(meters);
    }
  }

  @Override
  public void bindTo(MeterRegistry registry) {
    meters.add(registry);
  }

  @Override
  public void onAttemptEnd(AttemptFinished e) {
    Attempt a = e.attempt();
    Timer.builder("saferetry.attempts")
        .description("Attempts on the wire, by HTTP status or transport failure")
        .tags("client", client, "operation", e.operation())
        .tag("result", a.failure() != null ? a.failure().name() : String.valueOf(a.status()))
        .register(meters)
        .record(a.duration());
  }

  @Override
  public void onRetryScheduled(RetryScheduled e) {
    Counter.builder("saferetry.retries")
        .description("Retries scheduled, all with the call's idempotency key")
        .tags("client", client, "operation", e.operation())
        .tag("server_hint", String.valueOf(e.serverHint()))
        .register(meters)
        .increment();
  }

  @Override
  public void onCallEnd(CallFinished e) {
    Timer.builder("saferetry.calls")
        .description("Calls from start to end, by outcome; UNKNOWN intents stay pending")
        .tags("client", client, "operation", e.operation(), "outcome", e.outcome().name())
        .tag("reason", e.reason() == null ? "none" : e.reason().name())
        .register(meters)
        .record(e.duration());
  }

  /** Follows the state of {@code circuitBreaker}, the client's, in the state gauges. */
  public void watch(CircuitBreaker circuitBreaker) {
    circuitBreaker
        .getEventPublisher()
        .onStateTransition(e -> breaker.set(name(e.getStateTransition().getToState())));
  }

  private static String name(CircuitBreaker.State state) {
    switch (state) {
      case CLOSED:
      case HALF_OPEN:
        return state.name();
      case DISABLED:
      case METRICS_ONLY:
        return "DISABLED";
      default:
        return "OPEN";
    }
  }
}
