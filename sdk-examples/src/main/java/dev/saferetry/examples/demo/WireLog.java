package dev.saferetry.examples.demo;

import dev.saferetry.call.Attempt;
import dev.saferetry.event.AttemptFinished;
import dev.saferetry.event.RetryScheduled;
import dev.saferetry.event.SafeRetryListener;
import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A {@link SafeRetryListener} that records what happened on the wire: one row per attempt (intent,
 * attempt number, key, request id, status or transport failure, delay before it and whether the
 * server asked for it) and, once {@linkplain #watch watching} the client's circuit breaker, a note
 * per change of its state. The same hooks feed logs or metrics in a service.
 *
 * <p>Thread-safe.
 */
public final class WireLog implements SafeRetryListener {
  private final List<Row> rows = new CopyOnWriteArrayList<>();
  private final Map<String, Boolean> hinted = new ConcurrentHashMap<>();

  /**
   * One line of the log: an attempt, or a note when {@code note} is not null.
   *
   * @param intentId the intent, or {@code null}
   * @param attempt the attempt number, 0 for a note
   * @param key the idempotency key the attempt carried
   * @param requestId the request id the attempt sent (tracing only)
   * @param result the HTTP status, or the transport failure's name
   * @param delayBefore how long the client waited before the attempt
   * @param serverHint whether that wait was the server's {@code Retry-After}
   * @param note a remark instead of an attempt, or {@code null}
   */
  public record Row(
      String intentId,
      int attempt,
      String key,
      String requestId,
      String result,
      Duration delayBefore,
      boolean serverHint,
      String note) {
    /** Returns a note row. */
    public static Row note(String text) {
      return new Row(null, 0, null, null, null, Duration.ZERO, false, text);
    }

    /** Returns whether this row is an attempt (not a note). */
    public boolean isAttempt() {
      return note == null;
    }
  }

  @Override
  public void onAttemptEnd(AttemptFinished e) {
    Attempt a = e.attempt();
    String result = a.failure() != null ? a.failure().name() : String.valueOf(a.status());
    String key = e.key() == null ? "-" : e.key().value();
    boolean hint = a.number() > 1 && Boolean.TRUE.equals(hinted.remove(key));
    rows.add(
        new Row(
            e.intentId() == null ? "-" : e.intentId(),
            a.number(),
            key,
            a.requestId(),
            result,
            a.delayBefore(),
            hint,
            null));
  }

  @Override
  public void onRetryScheduled(RetryScheduled e) {
    hinted.put(e.key().value(), e.serverHint());
  }

  /** Adds a note for each state change of {@code breaker} (the client's circuit breaker). */
  public void watch(CircuitBreaker breaker) {
    breaker
        .getEventPublisher()
        .onStateTransition(
            e ->
                note(
                    "circuit breaker "
                        + e.getStateTransition().getFromState()
                        + " -> "
                        + e.getStateTransition().getToState()));
  }

  /** Adds a remark, e.g. what the caller did between calls. */
  public void note(String text) {
    rows.add(Row.note(text));
  }

  /** Returns the rows so far, in order. */
  public List<Row> rows() {
    return List.copyOf(rows);
  }
}
