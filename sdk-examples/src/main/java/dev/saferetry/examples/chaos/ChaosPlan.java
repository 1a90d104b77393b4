package dev.saferetry.examples.chaos;

import dev.saferetry.conformance.proxy.Fault;
import dev.saferetry.conformance.proxy.ProxiedRequest;
import java.time.Duration;
import java.util.EnumMap;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;

/**
 * The soak's fault plan for the conformance suite's fault proxy: every {@code POST} gets a {@link
 * FaultKind} chosen with a seeded random (faults equally likely among themselves), everything else
 * passes; the choices are counted per kind.
 *
 * <p>Thread-safe.
 */
final class ChaosPlan implements Function<ProxiedRequest, Fault> {
  private final Random random;
  private final double faultRate;
  private final Duration holdBack;
  private final Map<FaultKind, AtomicLong> counts = new EnumMap<>(FaultKind.class);

  /**
   * @param faultRate the share of POSTs that get a fault, in [0, 1]
   * @param holdBack how long a delayed answer is held (longer than the client's read timeout)
   * @param seed the seed of the choices
   */
  ChaosPlan(double faultRate, Duration holdBack, long seed) {
    if (!(faultRate >= 0 && faultRate <= 1)) {
      throw new IllegalArgumentException("faultRate must be in [0, 1]: " + faultRate);
    }
    this.random = new Random(seed);
    this.faultRate = faultRate;
    this.holdBack = holdBack;
    for (FaultKind k : FaultKind.values()) {
      counts.put(k, new AtomicLong());
    }
  }

  @Override
  public Fault apply(ProxiedRequest request) {
    FaultKind kind = request.method().equals("POST") ? choose() : FaultKind.PASS;
    counts.get(kind).incrementAndGet();
    return kind.fault(holdBack);
  }

  private FaultKind choose() {
    FaultKind[] kinds = FaultKind.values();
    synchronized (random) {
      return random.nextDouble() >= faultRate
          ? FaultKind.PASS
          : kinds[1 + random.nextInt(kinds.length - 1)];
    }
  }

  /** Returns how many POSTs got each kind so far (GETs count as {@code PASS}). */
  Map<FaultKind, Long> counts() {
    Map<FaultKind, Long> copy = new EnumMap<>(FaultKind.class);
    counts.forEach((k, v) -> copy.put(k, v.get()));
    return copy;
  }
}
