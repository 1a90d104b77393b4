package dev.saferetry.conformance;

import static dev.saferetry.conformance.Check.requireReplay;
import static dev.saferetry.conformance.Check.runOnlyIf;

/**
 * {@code replay.error-outcome}: a 4xx outcome must come back as a replay, and a server that stores
 * no error outcome answers a retry by executing it again — usually with the very same 4xx, which by
 * itself looks like a replay. What tells the two apart: a {@code fail-before-commit} fault armed
 * just before the retry fires only if the retry executes (a replay never reaches the handler); or,
 * without that hook, the replay marker on the retry. With neither the case is NOT RUN, never a
 * pass. Stateless; one case at a time.
 */
final class ErrorReplay {
  private ErrorReplay() {}

  static void errorOutcomeIsReplayed(Probe t) {
    String path = Check.declared(t, "error.path", "an operation that ends in a 4xx");
    String key = t.newKey();
    String body = errorBody(t);
    Answer first = t.send("first", "POST", path, body, key, t.tenant1());
    runOnlyIf(
        first.status() >= 400 && first.status() < 500,
        "the error operation answered " + first.status() + ", not a 4xx");
    boolean probe = faultShowsAnExecution(t, path);
    if (probe) {
      t.hooks().arm(FaultKind.FAIL_BEFORE_COMMIT, 0);
    }
    Answer retry =
        t.retry(
            probe ? "retry (a fault armed: it fires only if the retry executes)" : "retry",
            "POST",
            path,
            body,
            key,
            t.tenant1());
    if (probe) {
      int injected = FaultKind.FAIL_BEFORE_COMMIT.status(t.cfg);
      boolean fired = retry.status() == injected && first.status() != injected;
      if (!fired) {
        t.hooks().disarm(FaultKind.FAIL_BEFORE_COMMIT);
      }
      requireReplay(
          !fired,
          "the retry of the "
              + first.status()
              + " was executed again, not replayed: the fault armed for the next execution fired"
              + " on it ("
              + injected
              + ")");
    }
    requireReplay(
        retry.sameOutcomeAs(first),
        "the retry of a 4xx outcome differs: status "
            + retry.brief()
            + " vs "
            + first.status()
            + (retry.status() == first.status() ? ", " + ReplayCases.diff(first, retry) : ""));
    if (!probe) {
      requireMarkedAsReplay(t, retry);
    }
  }

  private static String errorBody(Probe t) {
    return Payload.fill(t.config("error.payload"), t.session.unique("conformance"), "");
  }

  /**
   * Whether an armed {@code fail-before-commit} fault fires on an execution of the error operation
   * (a fresh key): only then does it tell an execution of the retry from a replay.
   */
  private static boolean faultShowsAnExecution(Probe t, String path) {
    if (!t.hooks().has(FaultKind.FAIL_BEFORE_COMMIT)) {
      return false;
    }
    t.hooks().arm(FaultKind.FAIL_BEFORE_COMMIT, 0);
    Answer a =
        t.send(
            "the error operation with a fresh key, the fault armed",
            "POST",
            path,
            errorBody(t),
            t.newKey(),
            t.tenant1());
    boolean fired = a.status() == FaultKind.FAIL_BEFORE_COMMIT.status(t.cfg);
    if (!fired) {
      t.note("the fail-before-commit fault does not fire on the error operation");
      t.hooks().disarm(FaultKind.FAIL_BEFORE_COMMIT);
    }
    return fired;
  }

  private static void requireMarkedAsReplay(Probe t, Answer retry) {
    String marker = t.config("replay.header");
    String value = marker == null ? null : retry.header(marker);
    t.note(marker == null ? "no replay marker declared" : marker + " on the retry: " + value);
    if (value != null || marker == null) {
      runOnlyIf(value != null, NO_EVIDENCE);
      return;
    }
    Intent i = t.intent();
    i.created("a create, to see whether replays are marked");
    Answer replay = i.replay("its replay");
    runOnlyIf(replay.header(marker) != null, NO_EVIDENCE);
    requireReplay(
        false,
        "the retry of the 4xx was executed again, not replayed: a replayed create carries "
            + marker
            + ", the retry of the 4xx does not");
  }

  private static final String NO_EVIDENCE =
      "the retry answered the same 4xx, but nothing shows whether it was replayed or executed"
          + " again: declare hook.fault.fail-before-commit (armed before the retry, it fires only"
          + " on an execution) or a replay marker header the server sends (replay.header)";
}
