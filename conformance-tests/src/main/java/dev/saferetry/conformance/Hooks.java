package dev.saferetry.conformance;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The optional cooperation a target may declare, as request templates: one fault hook per {@link
 * FaultKind} ({@code hook.fault.<kind>}), {@code hook.fault.reset}, {@code hook.clock} (advances
 * the server clock by {@code ${seconds}}), {@code hook.restart}; and the declared timings {@code
 * lock-timeout-seconds} and {@code retention-seconds}. Hooks are sent with {@code hook.headers.*}
 * if any, else with tenant 1's headers. A case that needs an undeclared one ends as NOT RUN with
 * the reason; a declared one that fails ends it as ERROR. Thread-safe.
 */
final class Hooks {
  private final Probe t;
  private boolean armed;

  Hooks(Probe t) {
    this.t = t;
  }

  /** Whether the fault hook for {@code kind} is declared. */
  boolean has(FaultKind kind) {
    return t.config(kind.property()) != null;
  }

  /**
   * Arms {@code kind} for the next request the target handles.
   *
   * @param millis the delay of {@link FaultKind#DELAY}, ignored by the others
   * @throws NotRun when the hook is not declared
   */
  void arm(FaultKind kind, long millis) {
    Check.runOnlyIf(has(kind), "needs the " + kind + " fault hook (" + kind.property() + ")");
    Map<String, String> values = new LinkedHashMap<>();
    values.put("millis", Long.toString(millis));
    values.put("seconds", Long.toString(Math.max(1, TimeUnit.MILLISECONDS.toSeconds(millis))));
    values.put("status", Integer.toString(kind.status(t.cfg)));
    send(kind.template(t.cfg), values);
    armed = true;
  }

  /**
   * Disarms a fault this case armed and the server may not have consumed: through the reset hook
   * when declared, else by letting a throwaway create (fresh key and payload) consume it, so that
   * it cannot hit the next request.
   */
  void disarm(FaultKind kind) {
    if (t.config("hook.fault.reset") != null) {
      resetIfArmed();
      return;
    }
    Answer a = t.intent().send("a throwaway create that consumes the armed " + kind + " fault");
    t.note("armed " + kind + " fault drained by a throwaway create→" + a.brief());
    armed = false;
  }

  /** Disarms leftover faults if a fault was armed and a reset hook is declared. */
  void resetIfArmed() {
    if (armed && t.config("hook.fault.reset") != null) {
      send(HookTemplate.parse("hook.fault.reset", t.config("hook.fault.reset")), Map.of());
    }
    armed = false;
  }

  /** Simulates a server restart; NOT RUN when no restart hook is declared. */
  void restart() {
    send(template("hook.restart", "a restart hook"), Map.of());
  }

  /** The declared lock timeout; NOT RUN when undeclared. */
  Duration lockTimeout() {
    return seconds("lock-timeout-seconds", "the lock timeout");
  }

  /** The declared retention; NOT RUN when undeclared. */
  Duration retention() {
    return seconds("retention-seconds", "the retention");
  }

  /**
   * A moment shortly before a declared time ends: a tenth of it earlier, at least 1 s and at most
   * 60 s, so that neither clock granularity nor the requests' own latency can carry a retry past
   * the declared end.
   *
   * @throws NotRun when the declared time is too short to leave a moment before it
   */
  static Duration shortlyBefore(Duration declared, String what) {
    long margin = Math.min(60, Math.max(1, declared.getSeconds() / 10));
    Duration at = declared.minusSeconds(margin);
    Check.runOnlyIf(
        at.getSeconds() >= 1,
        "the declared " + what + " of " + declared.getSeconds() + "s is too short to test within");
    return at;
  }

  /** The phrase that marks a case NOT RUN because a declared time cannot pass in this run. */
  static final String WAIT_BOUND = "the suite's wait bound of ";

  /**
   * NOT RUN unless {@code wait} — for the declared {@code what} of {@code declared} — can pass: by
   * the clock hook, or by waiting for real when it is at most {@code max-wait-seconds}.
   */
  void assumeTimeCanPass(String what, Duration declared, Duration wait) {
    long maxWait = t.cfg.getLong("max-wait-seconds", 20);
    String beyond =
        declared.getSeconds() > maxWait
            ? "declared " + what + " " + declared.getSeconds() + " s exceeds "
            : "the declared "
                + what
                + " of "
                + declared.getSeconds()
                + " s needs a wait of "
                + wait.getSeconds()
                + " s, beyond ";
    Check.runOnlyIf(
        t.config("hook.clock") != null || wait.getSeconds() <= maxWait,
        beyond
            + WAIT_BOUND
            + maxWait
            + " s (max-wait-seconds), and no clock hook (hook.clock) is declared to move the"
            + " server's clock instead");
  }

  /**
   * Lets {@code d} pass on the server: advances its clock, or really waits. Callers first check
   * {@link #assumeTimeCanPass} with the declared time {@code d} derives from.
   */
  void pass(Duration d) {
    Check.runOnlyIf(
        t.config("hook.clock") != null || d.getSeconds() <= t.cfg.getLong("max-wait-seconds", 20),
        "cannot let " + d.getSeconds() + " s pass without a clock hook (hook.clock)");
    t.note("time+" + d.getSeconds() + "s");
    if (t.config("hook.clock") != null) {
      send(
          HookTemplate.parse("hook.clock", t.config("hook.clock")),
          Map.of("seconds", Long.toString(d.getSeconds())));
      return;
    }
    try {
      TimeUnit.MILLISECONDS.sleep(d.toMillis()); // a real server without a clock hook
      t.session.http.connectionPool().evictAll(); // the server may have closed them meanwhile
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while waiting for the server's timeout", e);
    }
  }

  private HookTemplate template(String property, String what) {
    String spec = Check.declared(t, property, what);
    return HookTemplate.parse(property, spec);
  }

  private Duration seconds(String key, String what) {
    Check.declared(t, key, what);
    long s = t.cfg.getLong(key, 0);
    Check.runOnlyIf(s > 0, key + " must be positive, got " + s);
    return Duration.ofSeconds(s);
  }

  /** Sends a hook; anything but 2xx is a {@link HookFailure}. */
  void send(HookTemplate hook, Map<String, String> values) {
    Answer a =
        t.attempt(
            "hook " + hook.property(),
            t.request(hook.method(), hook.url(values), hook.body(values), null, headers(t)),
            t.session.http,
            false);
    if (!a.ok()) {
      throw new HookFailure(hook.property() + " answered " + a.brief() + ", not 2xx");
    }
  }

  /** The headers hooks are sent with. */
  static Map<String, String> headers(Probe t) {
    Map<String, String> own = t.cfg.withPrefix("hook.headers.");
    return own.isEmpty() ? t.tenant1() : own;
  }
}
