package dev.saferetry.conformance;

import static dev.saferetry.conformance.Check.require;
import static dev.saferetry.conformance.Check.runOnlyIf;

import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.CountDownLatch;

/**
 * {@code lock.slow-request-takeover}: a request that is only slow — still running when its key's
 * lock times out — may have its key taken over by a retry, but then it must not commit as well (a
 * fenced takeover: the first request's completion checks it still owns the key and rolls back). An
 * unfenced takeover executes the operation twice: two charges. Needs the delay hook, which holds a
 * request while its key is pending, and a way to let the declared lock timeout pass. Stateless; one
 * case at a time.
 */
final class SlowTakeover {
  private SlowTakeover() {}

  static void slowRequestTakenOverExecutesOnce(Probe t) {
    Duration lockTimeout = t.hooks().lockTimeout();
    Duration past = lockTimeout.plusSeconds(1);
    t.hooks().assumeTimeCanPass("lock timeout", lockTimeout, past);
    long hold = FailureCases.holdPast(t, past);
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
    runOnlyIf(
        a.ok() || retry.ok(),
        "neither the first request (" + a.brief() + ") nor its retry was accepted");
    require(
        !(a.ok() && retry.ok() && !Objects.equals(t.id(a), t.id(retry))),
        "a request still running "
            + past.getSeconds()
            + "s after it began (declared lock timeout "
            + lockTimeout.getSeconds()
            + "s) was taken over by a retry and both were executed: "
            + t.id(retry)
            + " besides "
            + t.id(a)
            + " (a takeover must fence the first request off)");
    t.effects().require(1, "a slow request and the retry that took its key over", i.payload);
  }
}
