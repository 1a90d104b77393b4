package dev.saferetry.conformance;

import java.util.Arrays;
import java.util.stream.Collectors;

/**
 * The side effects one case caused, read through the declared {@link EffectCounter}: per marker, or
 * with a global counter as the change since the case began. Thread-safe enough for its use (one
 * case, counted from the case's thread).
 */
final class Effects {
  private final Probe t;
  private final EffectCounter counter;
  private long baseline = -1;
  private final java.util.Map<String, Long> before = new java.util.HashMap<>();

  Effects(Probe t, EffectCounter counter) {
    this.t = t;
    this.counter = counter;
  }

  /** Reads the baseline of a global counter; called before the case body. */
  void begin() {
    if (counter.mode() == EffectCounter.Mode.GLOBAL) {
      baseline = counter.total(t);
    }
  }

  /**
   * Reads how many effects these payloads' markers already have (a {@link Probe#stablePayload}
   * carries the effects of earlier runs), so that {@link #count} shows only this case's. Does
   * nothing without a per-marker counter (a global one counts from the case's start).
   */
  void baseline(Payload... payloads) {
    if (counter.mode() == EffectCounter.Mode.GLOBAL || !counted()) {
      return;
    }
    for (Payload p : payloads) {
      before.put(p.marker(), counter.count(t, p.marker()));
    }
  }

  /** Whether effects can be counted at all. */
  boolean counted() {
    return counter.mode() != EffectCounter.Mode.NONE;
  }

  /**
   * The effects of these payloads (global counter: every effect since the case began).
   *
   * @throws NotRun when no counter is declared
   */
  long count(String why, Payload... payloads) {
    Check.runOnlyIf(
        counted(),
        "needs a side-effect counter to show "
            + why
            + " (effects.count, effects.list or"
            + " effects.total), none declared");
    long n =
        counter.mode() == EffectCounter.Mode.GLOBAL
            ? counter.total(t) - baseline
            : Arrays.stream(payloads)
                .mapToLong(p -> counter.count(t, p.marker()) - before.getOrDefault(p.marker(), 0L))
                .sum();
    t.note("effects(" + names(payloads) + ")=" + n);
    return n;
  }

  /** Requires exactly {@code n} effects; NOT RUN without a counter. */
  void require(long n, String what, Payload... payloads) {
    require(n, 0, what, payloads);
  }

  /**
   * Requires exactly {@code n} effects of these payloads; a global counter, which sees every effect
   * of the case, must show {@code n + elsewhere} (effects of requests without a marker).
   */
  void require(long n, long elsewhere, String what, Payload... payloads) {
    if (counter.mode() == EffectCounter.Mode.GLOBAL) {
      n += elsewhere;
    }
    long seen = count(what, payloads);
    Check.require(
        seen == n, "side effects of " + what + ": expected " + n + ", counted " + seen + "");
  }

  /**
   * Like {@link #require} when a counter is declared; otherwise notes that nothing was counted.
   * Only for cases whose promise the answers themselves prove (a replayed id and body): a case that
   * promises "creates nothing" or "one effect" uses {@link #require}, so that without a counter it
   * is NOT RUN, never a pass.
   */
  void expect(long n, String what, Payload... payloads) {
    expect(n, 0, what, payloads);
  }

  /** Like {@link #require(long, long, String, Payload...)} when a counter is declared. */
  void expect(long n, long elsewhere, String what, Payload... payloads) {
    if (counted()) {
      require(n, elsewhere, what, payloads);
    } else {
      t.note("effects not counted (no counter declared)");
    }
  }

  private String names(Payload... payloads) {
    return counter.mode() == EffectCounter.Mode.GLOBAL
        ? "all, since the case began"
        : Arrays.stream(payloads).map(Payload::marker).collect(Collectors.joining("+"));
  }
}
