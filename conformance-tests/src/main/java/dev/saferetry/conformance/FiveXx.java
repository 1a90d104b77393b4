package dev.saferetry.conformance;

import static dev.saferetry.conformance.Check.require;
import static dev.saferetry.conformance.Check.runOnlyIf;

import java.time.Duration;
import java.util.Objects;

/**
 * The 5xx cases. The MUST: at most one side effect, and the retry is either a faithful replay of
 * the stored 5xx (same status and body, as Stripe replays errors) or a success. Which of the two a
 * server should prefer ({@code fault.5xx.retry=success|replay}) is the profile's SHOULD. The same
 * rule grades a framework's own 5xx after an unhandled exception.
 *
 * @param intent the operation
 * @param failed the answer the armed fault produced
 * @param retry the retry's answer
 */
record FiveXx(Intent intent, Answer failed, Answer retry) {

  static FiveXx run(Probe t, FaultKind kind) {
    t.hooks().arm(kind, 0);
    Intent i = t.intent();
    Answer failed = i.send("first (" + kind + " fault armed)");
    runOnlyIf(
        kind.answered(failed, t.cfg),
        "the armed "
            + kind
            + " fault did not take effect: the first request answered "
            + failed.brief()
            + ", not "
            + kind.expected(t.cfg));
    return new FiveXx(i, failed, afterAHeldKey(t, i, failed, i.replay("retry")));
  }

  /**
   * A retry answered "in progress" although the failed request has ended: the server still holds
   * the key. That is no second effect; the retry's real outcome shows once the declared lock
   * timeout has passed (NOT RUN when it cannot pass).
   */
  private static Answer afterAHeldKey(Probe t, Intent i, Answer failed, Answer retry) {
    int inProgress = t.cfg.getInt("status.in-progress", 409);
    if (retry.status() != inProgress || failed.status() == inProgress) {
      return retry;
    }
    t.note("the key is still held as in progress after the failed request ended");
    Duration lockTimeout = t.hooks().lockTimeout();
    t.hooks().assumeTimeCanPass("lock timeout", lockTimeout, lockTimeout.plusSeconds(1));
    t.hooks().pass(lockTimeout.plusSeconds(1));
    return i.replay("retry after the declared lock timeout");
  }

  static void requireAtMostOneEffect(Probe t, FaultKind kind) {
    FiveXx s = run(t, kind);
    // A second side effect is a finding of its own, whatever failed before: counted first.
    if (t.effects().counted()) {
      requireAtMostOne(t, s);
    }
    boolean replay = s.retry.sameOutcomeAs(s.failed);
    Check.requireReplay(
        s.retry.ok() || replay,
        "the retry after the "
            + s.failed.status()
            + " is neither a success nor a faithful replay of it: got "
            + s.retry.brief()
            + (s.retry.status() == s.failed.status()
                ? " with " + ReplayCases.diff(s.failed, s.retry)
                : ""));
    long n = requireAtMostOne(t, s); // NOT RUN without a counter
    if (s.retry.ok()) {
      require(
          n == 1, "the retry reported success (" + s.retry.status() + ") but nothing was executed");
      Answer again = s.intent.replay("replay of the retry");
      ReplayCases.requireNotExecutedAgain(t, s.retry, again, "the replay of the successful retry");
      Check.requireReplay(
          again.ok() && Objects.equals(t.id(again), t.id(s.retry)),
          "the successful retry is not replayed: " + again.brief() + " " + t.id(again));
    }
  }

  private static long requireAtMostOne(Probe t, FiveXx s) {
    long n = t.effects().count("at most one side effect", s.intent.payload);
    require(
        n <= 1,
        "the " + s.failed.status() + " and its retry caused " + n + " side effects for one key");
    return n;
  }

  static void requirePreferred(Probe t, FaultKind kind) {
    String preferred = t.cfg.all().getOrDefault("fault.5xx.retry", "success").strip();
    FiveXx s = run(t, kind);
    boolean replay = s.retry.sameOutcomeAs(s.failed);
    t.note(
        "retry "
            + (s.retry.ok()
                ? "succeeded"
                : replay ? "replayed the 5xx" : "answered " + s.retry.brief()));
    if (preferred.equals("replay")) {
      Check.requireReplay(
          replay,
          "the profile prefers the stored "
              + s.failed.status()
              + " replayed; the retry got "
              + s.retry.brief());
    } else {
      Check.requireReplay(
          s.retry.ok(), "the profile prefers a successful retry; the retry got " + s.retry.brief());
    }
  }
}
