package dev.saferetry.conformance;

import static dev.saferetry.conformance.Check.require;
import static dev.saferetry.conformance.Check.runOnlyIf;

import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * {@code lock.slow-request-takeover}: a request that is only slow — still running when its key's
 * lock times out — may have its key taken over by a retry, but then it must not commit as well (a
 * fenced takeover: the first request's completion checks it still owns the key and rolls back). An
 * unfenced takeover executes the operation twice: two charges. Needs the delay hook, which holds a
 * request while its key is pending, and a way to let the declared lock timeout pass. Stateless; one
 * case at a time.
 */
final class SlowTakeover {
  private static final long WAITED_MILLIS = 200;

  private SlowTakeover() {}

  static void slowRequestTakenOverExecutesOnce(Probe t) {
    Duration lockTimeout = t.hooks().lockTimeout();
    Duration past = lockTimeout.plusSeconds(1);
    t.hooks().assumeTimeCanPass("lock timeout", lockTimeout, past);
    for (int attempt = 1; attempt <= FailureCases.HOLD_ATTEMPTS; attempt++) {
      t.effects().begin();
      long hold = FailureCases.holdPast(t, past) << (attempt - 1);
      t.hooks().arm(FaultKind.DELAY, hold);
      Intent i = t.intent();
      Concurrent.InFlight first =
          Concurrent.start(
              t,
              "first (held " + hold + " ms)",
              t.request("POST", t.config("create.path"), i.payload.json(), i.key, t.tenant1()),
              new CountDownLatch(0));
      ConcurrencyCases.headStart();
      t.hooks().pass(past);
      Answer retry = i.send("retry " + past.getSeconds() + "s after the first began");
      Answer a = first.await();
      t.note("first→" + a.brief() + (t.id(a) == null ? "" : "(" + t.id(a) + ")"));
      runOnlyIf(
          a.endNanos() > retry.startNanos(),
          "the first request ended before the retry was sent, so the case proves nothing");
      if (answeredOnlyAfterTheFirstEnded(t, a, retry)) {
        t.note("attempt " + attempt + ": the retry was handled only after the first had ended");
        continue;
      }
      judge(t, i, lockTimeout, past, a, retry);
      return;
    }
    throw new NotRun(
        "in "
            + FailureCases.HOLD_ATTEMPTS
            + " attempts the retry was handled only after the first request had ended (a loaded"
            + " machine?): the takeover was not exercised");
  }

  /**
   * Whether the retry replayed the first request's outcome although it was answered well after the
   * first ended: it reached the server too late to meet a running request. (A retry the server made
   * wait for the first ends with it, and is a valid answer.)
   */
  private static boolean answeredOnlyAfterTheFirstEnded(Probe t, Answer a, Answer retry) {
    return a.ok()
        && retry.ok()
        && Objects.equals(t.id(a), t.id(retry))
        && TimeUnit.NANOSECONDS.toMillis(retry.endNanos() - a.endNanos()) > WAITED_MILLIS;
  }

  private static void judge(
      Probe t, Intent i, Duration lockTimeout, Duration past, Answer a, Answer retry) {
    boolean twoResources = a.ok() && retry.ok() && !Objects.equals(t.id(a), t.id(retry));
    String what =
        "a request still running "
            + past.getSeconds()
            + "s after it began (declared lock timeout "
            + lockTimeout.getSeconds()
            + "s) and the retry that took its key over";
    if (t.effects().counted()) {
      long n = t.effects().count(what, i.payload);
      require(
          n <= 1,
          what
              + " were both executed: "
              + n
              + " effects (a takeover must fence the first request off)");
      require(
          !twoResources,
          what
              + " both answered success with distinct resources, "
              + t.id(a)
              + " and "
              + t.id(retry)
              + ", though only one was executed");
      t.effects().require(1, what, i.payload);
      return;
    }
    require(
        !twoResources,
        what
            + " were both executed: "
            + t.id(retry)
            + " besides "
            + t.id(a)
            + " (a takeover must fence the first request off)");
    t.effects().require(1, what, i.payload); // NOT RUN: nothing else shows one effect
  }
}
