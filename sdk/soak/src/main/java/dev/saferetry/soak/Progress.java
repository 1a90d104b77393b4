package dev.saferetry.soak;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * What the workers reported, merged from all their lines: resolved intents with their latency,
 * attempts, unresolved calls, definitive failures and recovered pending intents.
 *
 * <p>Thread-safe: one reader thread per worker feeds it; {@link #awaitChange} lets the coordinator
 * wait for news with a bound.
 */
final class Progress {
  private final Map<String, Long> doneMicros = new ConcurrentHashMap<>();
  private final Set<String> failed = ConcurrentHashMap.newKeySet();
  private final AtomicLong attempts = new AtomicLong();
  private final AtomicLong unresolvedCalls = new AtomicLong();
  private final AtomicLong recovered = new AtomicLong();
  private final Set<String> adopted = ConcurrentHashMap.newKeySet();
  private final Object signal = new Object();

  /** Applies one worker line; returns true for {@code finished}. */
  boolean accept(String line) {
    String[] f = line.split(" ");
    switch (f[0]) {
      case "done" -> {
        long micros = Long.parseLong(f[3]);
        attempts.addAndGet(Long.parseLong(f[2]));
        if (micros > 0) {
          doneMicros.merge(f[1], micros, Math::max);
        } else {
          doneMicros.putIfAbsent(f[1], 0L);
        }
      }
      case "again" -> {
        attempts.addAndGet(Long.parseLong(f[2]));
        unresolvedCalls.incrementAndGet();
      }
      case "failed" -> failed.add(f[1]);
      case "recovered" -> recovered.addAndGet(Long.parseLong(f[1]));
      case "adopted" -> adopted.add(f[1]);
      default -> {
        // "finished" and anything unexpected: handled by the caller or ignored.
      }
    }
    synchronized (signal) {
      signal.notifyAll();
    }
    return "finished".equals(f[0]);
  }

  /** Waits at most {@code millis} for the next line from any worker. */
  void awaitChange(long millis) throws InterruptedException {
    synchronized (signal) {
      signal.wait(millis);
    }
  }

  int resolved() {
    return doneMicros.size();
  }

  boolean isDone(String intentId) {
    return doneMicros.containsKey(intentId);
  }

  Set<String> failed() {
    return Set.copyOf(failed);
  }

  long attempts() {
    return attempts.get();
  }

  long unresolvedCalls() {
    return unresolvedCalls.get();
  }

  long recovered() {
    return recovered.get();
  }

  /** Intents of another worker that a worker re-drove to success from the shared store. */
  Set<String> adopted() {
    return Set.copyOf(adopted);
  }

  /** Latencies (µs) of the calls that resolved intents, excluding intents found done on restart. */
  List<Long> latencies() {
    List<Long> out = new ArrayList<>();
    for (long v : doneMicros.values()) {
      if (v > 0) {
        out.add(v);
      }
    }
    return out;
  }
}
