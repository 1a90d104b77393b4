package dev.saferetry.spring;

import dev.saferetry.call.Outcome;
import dev.saferetry.event.CallFinished;
import dev.saferetry.event.SafeRetryListener;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Counts, per client, the calls that ended with an unknown outcome since start (for the health
 * contributor: each is an intent a re-drive or the relay must settle with its key).
 *
 * <p>This class is thread-safe.
 */
final class UnknownOutcomes implements PerClientListener {
  private final Map<String, AtomicLong> counts = new ConcurrentHashMap<>();

  @Override
  public SafeRetryListener forClient(String clientName) {
    AtomicLong count = counts.computeIfAbsent(clientName, n -> new AtomicLong());
    return new SafeRetryListener() {
      @Override
      public void onCallEnd(CallFinished e) {
        if (e.outcome() == Outcome.UNKNOWN) {
          count.incrementAndGet();
        }
      }
    };
  }

  /** {@return the counts by client name} */
  Map<String, Long> snapshot() {
    Map<String, Long> out = new TreeMap<>();
    counts.forEach((k, v) -> out.put(k, v.get()));
    return out;
  }
}
