package dev.saferetry.soak;

import dev.saferetry.conformance.proxy.Fault;
import dev.saferetry.conformance.proxy.ProxiedRequest;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.EnumMap;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The soak's fault plan for the conformance suite's fault proxy: every {@code POST} gets a {@link
 * FaultKind} chosen with a seeded random (faults equally likely among themselves), everything else
 * passes; the choices are counted per kind.
 *
 * <p>With {@link #holdFirstIntent(String)} the plan first picks the intent of the first charge
 * {@code POST} it sees and resets every {@code POST} of that intent before it reaches the server,
 * until {@link #release()}: the intent stays pending in its worker's store, unresolved, for as long
 * as the coordinator needs to kill that worker with it.
 *
 * <p>Thread-safe.
 */
final class ChaosPlan implements Function<ProxiedRequest, Fault> {
  private final Random random;
  private final double faultRate;
  private final Duration holdBack;
  private final Map<FaultKind, AtomicLong> counts = new EnumMap<>(FaultKind.class);
  private final Object holdLock = new Object();
  private Pattern intentIds;
  private String held;
  private boolean holding;

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

  /**
   * Holds the first intent whose id ({@code prefix-NNNNNN}) a charge {@code POST} body carries:
   * every {@code POST} of it is reset before it is sent, until {@link #release()}.
   */
  void holdFirstIntent(String prefix) {
    synchronized (holdLock) {
      intentIds = Pattern.compile(Pattern.quote(prefix) + "-\\d{6}");
      holding = true;
    }
  }

  /** Returns the held intent's id once a {@code POST} of it was seen, else null. */
  String heldIntent() {
    synchronized (holdLock) {
      return held;
    }
  }

  /** Lets the held intent's {@code POST}s through to the random plan again. */
  void release() {
    synchronized (holdLock) {
      holding = false;
    }
  }

  @Override
  public Fault apply(ProxiedRequest request) {
    FaultKind kind = request.method().equals("POST") ? choose(request) : FaultKind.PASS;
    counts.get(kind).incrementAndGet();
    return kind.fault(holdBack);
  }

  private FaultKind choose(ProxiedRequest request) {
    synchronized (holdLock) {
      if (holding) {
        Matcher id = intentIds.matcher(new String(request.body(), StandardCharsets.UTF_8));
        if (id.find()) {
          if (held == null) {
            held = id.group();
          }
          if (held.equals(id.group())) {
            return FaultKind.RESET_BEFORE_SEND; // never reaches the server: stays unresolved
          }
        }
      }
    }
    return choose();
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
