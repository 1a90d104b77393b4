package dev.saferetry.conformance;

import static dev.saferetry.conformance.Check.require;
import static dev.saferetry.conformance.Check.runOnlyIf;

import java.util.Objects;

/**
 * The 5xx cases. The MUST: at most one side effect, and the retry is either a faithful replay of
 * the stored 5xx (same status, body and content type, as Stripe replays errors) or a success. Which
 * of the two a server should prefer ({@code fault.5xx.retry=success|replay}) is the profile's
 * SHOULD.
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
    int status = kind.status(t.cfg);
    runOnlyIf(
        failed.status() == status,
        "the armed "
            + kind
            + " fault did not take effect: the first request answered "
            + failed.brief()
            + ", not "
            + status);
    return new FiveXx(i, failed, i.send("retry"));
  }

  static void requireAtMostOneEffect(Probe t, FaultKind kind) {
    FiveXx s = run(t, kind);
    boolean replay = s.retry.sameOutcomeAs(s.failed);
    require(
        s.retry.ok() || replay,
        "the retry after the "
            + s.failed.status()
            + " is neither a success nor a faithful replay of it: got "
            + s.retry.brief()
            + (s.retry.status() == s.failed.status()
                ? " with " + ReplayCases.diff(s.failed, s.retry)
                : ""));
    long n = t.effects().count("at most one side effect", s.intent.payload);
    require(
        n <= 1,
        "the " + s.failed.status() + " and its retry caused " + n + " side effects for one key");
    if (s.retry.ok()) {
      require(
          n == 1, "the retry reported success (" + s.retry.status() + ") but nothing was executed");
      Answer again = s.intent.send("replay of the retry");
      require(
          again.ok() && Objects.equals(t.id(again), t.id(s.retry)),
          "the successful retry is not replayed: " + again.brief() + " " + t.id(again));
    }
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
      require(
          replay,
          "the profile prefers the stored "
              + s.failed.status()
              + " replayed; the retry got "
              + s.retry.brief());
    } else {
      require(
          s.retry.ok(), "the profile prefers a successful retry; the retry got " + s.retry.brief());
    }
  }
}
