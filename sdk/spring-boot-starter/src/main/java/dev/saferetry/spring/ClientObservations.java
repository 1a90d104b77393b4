package dev.saferetry.spring;

import dev.saferetry.call.Attempt;
import dev.saferetry.event.AttemptFinished;
import dev.saferetry.event.AttemptStarted;
import dev.saferetry.event.CallFinished;
import dev.saferetry.event.CallStarted;
import dev.saferetry.event.SafeRetryListener;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Observes one client's calls through Micrometer's Observation API: an observation {@code
 * saferetry.call} per call of an intent (a child of the observation current when the call started,
 * so a trace per intent when none is), and a child {@code saferetry.attempt} per attempt.
 *
 * <p>Low-cardinality tags: {@code saferetry.client}, {@code saferetry.operation}, {@code
 * saferetry.outcome}, {@code saferetry.reason}, {@code saferetry.attempt.result}. High-cardinality
 * tags (on spans, never on meters): {@code saferetry.intent_id}, {@code saferetry.idempotency_key}
 * and {@code saferetry.request_id}: a key identifies an intent to the provider and grants nothing,
 * so it is safe to trace; credentials, headers and bodies are never tagged.
 *
 * <p>This class is thread-safe.
 */
final class ClientObservations implements SafeRetryListener {
  private final String client;
  private final ObservationRegistry registry;
  private final Map<String, Observation> calls = new ConcurrentHashMap<>();
  private final Map<String, Observation> attempts = new ConcurrentHashMap<>();

  ClientObservations(String client, ObservationRegistry registry) {
    this.client = client;
    this.registry = registry;
  }

  @Override
  public void onCallStart(CallStarted e) {
    Observation o =
        Observation.createNotStarted("saferetry.call", registry)
            .contextualName(e.operation())
            .parentObservation(registry.getCurrentObservation())
            .lowCardinalityKeyValue("saferetry.client", client)
            .lowCardinalityKeyValue("saferetry.operation", e.operation());
    if (e.intentId() != null) {
      o.highCardinalityKeyValue("saferetry.intent_id", e.intentId());
    }
    calls.put(e.callId(), o.start());
  }

  @Override
  public void onAttemptStart(AttemptStarted e) {
    Observation o =
        Observation.createNotStarted("saferetry.attempt", registry)
            .contextualName(e.operation() + " attempt " + e.attempt())
            .parentObservation(calls.get(e.callId()))
            .lowCardinalityKeyValue("saferetry.client", client)
            .lowCardinalityKeyValue("saferetry.operation", e.operation())
            .highCardinalityKeyValue("saferetry.attempt", String.valueOf(e.attempt()))
            .highCardinalityKeyValue("saferetry.request_id", e.requestId());
    if (e.key() != null) {
      o.highCardinalityKeyValue("saferetry.idempotency_key", e.key().value());
    }
    attempts.put(e.requestId(), o.start());
  }

  @Override
  public void onAttemptEnd(AttemptFinished e) {
    Attempt a = e.attempt();
    Observation o = attempts.remove(a.requestId());
    if (o == null) {
      return;
    }
    o.lowCardinalityKeyValue(
        "saferetry.attempt.result",
        a.failure() != null ? lower(a.failure().name()) : String.valueOf(a.status()));
    o.stop();
  }

  @Override
  public void onCallEnd(CallFinished e) {
    Observation o = calls.remove(e.callId());
    if (o == null) {
      return;
    }
    o.lowCardinalityKeyValue("saferetry.outcome", lower(e.outcome().name()));
    o.lowCardinalityKeyValue(
        "saferetry.reason", e.reason() == null ? "none" : lower(e.reason().name()));
    o.stop();
  }

  private static String lower(String s) {
    return s.toLowerCase(Locale.ROOT);
  }
}
