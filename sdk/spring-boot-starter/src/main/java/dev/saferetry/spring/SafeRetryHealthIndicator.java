package dev.saferetry.spring;

import dev.saferetry.SafeRetryClient;
import dev.saferetry.jdbc.outbox.SafeRetryMeters;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.TimeGauge;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.health.contributor.AbstractHealthIndicator;
import org.springframework.boot.health.contributor.Health;

/**
 * SafeRetry's component of {@code /actuator/health} ({@code saferetry}): each client's breaker
 * state and its calls that ended with an unknown outcome since start; the outbox's backlog (queued
 * due, queued later, leased, held) and how long ago the oldest due intent was enqueued; the relays
 * configured and their threads alive.
 *
 * <p>DOWN when the relays were started and a relay's thread is gone (intents would wait for another
 * instance); an open breaker is reported, not DOWN: the provider is failing, not this application,
 * and restarting it would not help.
 *
 * <p>This class is thread-safe.
 */
final class SafeRetryHealthIndicator extends AbstractHealthIndicator {
  private final Map<String, SafeRetryClient> clients;
  private final UnknownOutcomes unknown;
  private final ObjectProvider<RelayLifecycle> relays;
  private final MeterRegistry backlog;

  SafeRetryHealthIndicator(
      Map<String, SafeRetryClient> clients,
      UnknownOutcomes unknown,
      ObjectProvider<RelayLifecycle> relays,
      ObjectProvider<SafeRetryMeters> meters) {
    super("SafeRetry health check failed");
    this.clients = clients;
    this.unknown = unknown;
    this.relays = relays;
    SafeRetryMeters m = meters.getIfAvailable();
    if (m != null) {
      this.backlog = new SimpleMeterRegistry();
      m.bindTo(backlog);
    } else {
      this.backlog = null;
    }
  }

  @Override
  protected void doHealthCheck(Health.Builder builder) {
    Map<String, Long> unknownByClient = unknown.snapshot();
    Map<String, Object> clientDetails = new LinkedHashMap<>();
    clients.forEach(
        (name, client) -> {
          Map<String, Object> d = new LinkedHashMap<>();
          d.put("breaker", client.circuitBreaker().getState().name());
          d.put("unknownOutcomes", unknownByClient.getOrDefault(name, 0L));
          clientDetails.put(name, d);
        });
    builder.up().withDetail("clients", clientDetails);
    if (backlog != null) {
      builder.withDetail("outbox", outbox());
    }
    RelayLifecycle r = relays.getIfAvailable();
    if (r != null) {
      int alive = r.aliveThreads();
      Map<String, Object> d = new LinkedHashMap<>();
      d.put("configured", r.relays().size());
      d.put("running", r.isRunning());
      d.put("threadsAlive", alive);
      builder.withDetail("relays", d);
      if (r.isRunning() && alive < r.relays().size()) {
        builder.down();
      }
    }
  }

  private Map<String, Object> outbox() {
    Map<String, Object> d = new LinkedHashMap<>();
    for (String state : new String[] {"queued_due", "queued_later", "leased"}) {
      d.put(state, count(state));
    }
    double held = 0;
    for (Gauge g : backlog.find("saferetry.outbox.intents").tag("state", "held").gauges()) {
      held += g.value();
    }
    d.put("held", whole(held));
    TimeGauge oldest = backlog.find("saferetry.outbox.oldest.due").timeGauge();
    d.put("oldestDueSeconds", oldest == null ? null : whole(oldest.value(TimeUnit.SECONDS)));
    return d;
  }

  private Long count(String state) {
    Gauge g = backlog.find("saferetry.outbox.intents").tag("state", state).gauge();
    return g == null ? null : whole(g.value());
  }

  /** A gauge's value, or null while the table cannot be read (the meters give NaN then). */
  private static Long whole(double value) {
    return Double.isNaN(value) ? null : (long) value;
  }
}
