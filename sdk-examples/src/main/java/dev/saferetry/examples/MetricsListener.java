package dev.saferetry.examples;

import dev.saferetry.event.AttemptFinished;
import dev.saferetry.event.BreakerStateChanged;
import dev.saferetry.event.GaveUp;
import dev.saferetry.event.RetryScheduled;
import dev.saferetry.event.SafeRetryListener;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Feeds a client's events into the service's logs and counters — swap the counters for your metrics
 * registry (Micrometer, Prometheus...) — then passes them on to {@code next}: a client has one
 * listener, so chain them to have several. Part of {@link BringYourOwnParts}.
 *
 * <p>Thread-safe, as listeners must be: they run on the calling threads.
 */
public final class MetricsListener implements SafeRetryListener {
  private static final Logger LOG = LoggerFactory.getLogger("acme.payments");
  private final Map<String, LongAdder> counters = new ConcurrentHashMap<>();
  private final SafeRetryListener next;

  /** Creates a listener that passes every event on to {@code next}. */
  public MetricsListener(SafeRetryListener next) {
    this.next = next;
  }

  /** Returns the counters' current values, by name. */
  public Map<String, Long> snapshot() {
    Map<String, Long> values = new TreeMap<>();
    counters.forEach((name, count) -> values.put(name, count.sum()));
    return values;
  }

  private void increment(String name) {
    counters.computeIfAbsent(name, n -> new LongAdder()).increment();
  }

  @Override
  public void onAttemptEnd(AttemptFinished e) {
    increment("payments.attempts");
    next.onAttemptEnd(e);
  }

  @Override
  public void onRetryScheduled(RetryScheduled e) {
    increment("payments.retries");
    LOG.info(
        "retrying {} in {} ms with the same key {}", e.operation(), e.delay().toMillis(), e.key());
    next.onRetryScheduled(e);
  }

  @Override
  public void onGiveUp(GaveUp e) {
    increment("payments.gave_up." + e.outcome());
    LOG.warn("gave up on {} (key {}): {}", e.intentId(), e.key(), e.reason());
    next.onGiveUp(e);
  }

  @Override
  public void onBreakerStateChange(BreakerStateChanged e) {
    increment("payments.breaker." + e.to());
    LOG.warn("payments API breaker {} -> {}", e.from(), e.to());
    next.onBreakerStateChange(e);
  }
}
