package dev.saferetry.conformance;

import static dev.saferetry.conformance.Check.require;
import static dev.saferetry.conformance.Check.runOnlyIf;

import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CountDownLatch;
import okhttp3.Request;

/** Failures between commit and client: lost responses, 5xx, hung requests, restarts. */
final class FailureCases {
  /** Attempts of a case that holds a request while its retry is sent, before NOT RUN. */
  static final int HOLD_ATTEMPTS = 3;

  private FailureCases() {}

  static List<CaseSpec> cases() {
    return List.of(
        CaseSpec.must(
                "lost-response.retry-replays",
                "A response lost after the server committed (dropped by the suite's proxy) is"
                    + " replayed on retry",
                FailureCases::lostResponseIsReplayedOnRetry)
            .after(ReplayCases.BASIC),
        CaseSpec.must(
                "fault.5xx-after-commit",
                "After a 5xx answered once the effect was committed: at most one side effect, and"
                    + " the retry is a faithful replay of the 5xx or a success",
                t -> FiveXx.requireAtMostOneEffect(t, FaultKind.FAIL_AFTER_COMMIT))
            .after(ReplayCases.BASIC),
        CaseSpec.should(
                "fault.5xx-after-commit-preferred",
                "The retry after a post-commit 5xx is what the profile prefers (IETF: a success;"
                    + " Stripe: the stored 5xx replayed)",
                t -> FiveXx.requirePreferred(t, FaultKind.FAIL_AFTER_COMMIT))
            .after(ReplayCases.BASIC),
        CaseSpec.must(
                "fault.5xx-before-commit",
                "After a 5xx answered before anything was committed: at most one side effect, and"
                    + " the retry is a faithful replay of the 5xx or a success",
                t -> FiveXx.requireAtMostOneEffect(t, FaultKind.FAIL_BEFORE_COMMIT))
            .after(ReplayCases.BASIC),
        CaseSpec.should(
                "fault.5xx-before-commit-preferred",
                "The retry after a pre-commit 5xx is what the profile prefers (IETF: executed;"
                    + " Stripe: the stored 5xx replayed)",
                t -> FiveXx.requirePreferred(t, FaultKind.FAIL_BEFORE_COMMIT))
            .after(ReplayCases.BASIC),
        CaseSpec.must(
                "fault.unhandled-exception",
                "After an unhandled exception (the framework's own 5xx, nothing committed): at most"
                    + " one side effect, and the retry is a faithful replay of that 5xx (status and"
                    + " body) or a success",
                t -> FiveXx.requireAtMostOneEffect(t, FaultKind.UNHANDLED_EXCEPTION))
            .after(ReplayCases.BASIC),
        CaseSpec.must(
                "lock.never-finishing-request",
                "A request that never finishes does not wedge its key beyond the declared lock"
                    + " timeout",
                FailureCases::hungRequestReleasesItsKeyAfterTheLockTimeout)
            .after(ReplayCases.BASIC),
        CaseSpec.must(
            "lock.held-while-running",
            "A retry shortly before the declared lock timeout, while the first request still runs,"
                + " is not executed a second time",
            FailureCases::retryWhileTheFirstStillRunsIsNotExecutedAgain),
        CaseSpec.must(
            "lock.slow-request-takeover",
            "A request still running past the declared lock timeout and taken over by a retry does"
                + " not commit as well: one effect",
            SlowTakeover::slowRequestTakenOverExecutesOnce),
        CaseSpec.must(
                "durability.restart",
                "Keys survive a server restart: a retry after the restart replays instead of"
                    + " executing again",
                FailureCases::keysSurviveARestart)
            .after(ReplayCases.BASIC));
  }

  static void lostResponseIsReplayedOnRetry(Probe t) {
    Intent i = t.intent();
    try (LossyProxy proxy = new LossyProxy(t.session.baseUrl, t.session.http)) {
      Request viaProxy =
          t.request(
              "POST",
              proxy.baseUrl() + t.config("create.path"),
              i.payload.json(),
              i.key,
              t.tenant1());
      Answer client = t.attempt("first, through the lossy proxy", viaProxy);
      runOnlyIf(client.lost(), "the proxy failed to drop the response");
      List<Answer> lost = proxy.swallowed();
      runOnlyIf(lost.size() == 1, "the proxy forwarded the request " + lost.size() + " times");
      Answer original = lost.get(0);
      t.note("the proxy swallowed " + original.brief() + "(" + t.id(original) + ")");
      runOnlyIf(
          original.ok() && t.id(original) != null,
          "the server did not create the resource behind the proxy (" + original.brief() + ")");
      Answer retry = i.replay("retry");
      ReplayCases.requireNotExecutedAgain(t, original, retry, "the retry of a lost response");
      Check.requireReplay(
          retry.status() == original.status(),
          "the retry answered " + retry.status() + ", the lost response was " + original.status());
      Check.requireReplay(
          Objects.equals(t.id(original), t.id(retry)),
          "the retry returned " + t.id(retry) + ", the lost response carried " + t.id(original));
    }
    t.effects().expect(1, "a lost response and its retry", i.payload);
  }

  static void hungRequestReleasesItsKeyAfterTheLockTimeout(Probe t) {
    Duration lockTimeout = t.hooks().lockTimeout();
    t.hooks().assumeTimeCanPass("lock timeout", lockTimeout, lockTimeout.plusSeconds(1));
    t.hooks().arm(FaultKind.HANG, 0);
    Intent i = t.intent();
    Request request =
        t.request("POST", t.config("create.path"), i.payload.json(), i.key, t.tenant1());
    CountDownLatch gate = new CountDownLatch(1);
    Concurrent.InFlight a = Concurrent.start(t, "request A", request, gate);
    Concurrent.InFlight b = Concurrent.start(t, "request B", request, gate);
    gate.countDown();
    Concurrent.InFlight[] order = Concurrent.firstDone(a, b, Duration.ofSeconds(5));
    t.note(
        order == null
            ? "neither request answered within 5s"
            : "while the other hangs→" + order[0].await().brief());
    t.hooks().pass(lockTimeout.plusSeconds(1));
    Answer retry =
        t.attempt(
            "retry after the lock timeout",
            t.request("POST", t.config("create.path"), i.payload.json(), i.key, t.tenant1()));
    // A retry rejected for a reason a broken basic replay explains (every retry answered 422)
    // would blame a wedged lock for it.
    Check.requireReplay(
        retry.ok(),
        "the key is still wedged "
            + lockTimeout.plusSeconds(1).getSeconds()
            + "s after the hung request began (declared lock timeout "
            + lockTimeout.getSeconds()
            + "s): the retry answered "
            + retry.status());
    Answer replay = i.send("replay");
    ReplayCases.requireNotExecutedAgain(t, retry, replay, "a replay of the retry");
    Check.requireReplay(
        Objects.equals(t.id(retry), t.id(replay)),
        "the retry's outcome is not replayed: "
            + replay.brief()
            + " "
            + t.id(replay)
            + " after "
            + t.id(retry));
    t.effects().expect(1, "a hung request and its retry", i.payload);
  }

  static void retryWhileTheFirstStillRunsIsNotExecutedAgain(Probe t) {
    Duration lockTimeout = t.hooks().lockTimeout();
    Duration age = Hooks.shortlyBefore(lockTimeout, "lock timeout");
    t.hooks().assumeTimeCanPass("lock timeout", lockTimeout, age);
    for (int attempt = 1; attempt <= HOLD_ATTEMPTS; attempt++) {
      t.effects().begin();
      long hold = holdPast(t, age) << (attempt - 1); // a loaded machine may send the retry late
      t.hooks().arm(FaultKind.DELAY, hold);
      Intent i = t.intent();
      Concurrent.InFlight first =
          Concurrent.start(
              t,
              "first (held " + hold + " ms)",
              t.request("POST", t.config("create.path"), i.payload.json(), i.key, t.tenant1()),
              new CountDownLatch(0));
      ConcurrencyCases.headStart();
      t.hooks().pass(age);
      Answer retry = i.send("retry " + age.getSeconds() + "s after the first began");
      Answer a = first.await();
      t.note("first→" + a.brief() + (t.id(a) == null ? "" : "(" + t.id(a) + ")"));
      if (a.endNanos() <= retry.startNanos()) {
        t.note("attempt " + attempt + ": the first request ended before the retry was sent");
        continue;
      }
      runOnlyIf(
          a.ok() || retry.ok(),
          "neither the first request (" + a.brief() + ") nor its retry was accepted");
      require(
          !(a.ok() && retry.ok() && !Objects.equals(t.id(a), t.id(retry))),
          "a retry "
              + age.getSeconds()
              + "s after the first request began, while it still ran (declared lock timeout "
              + lockTimeout.getSeconds()
              + "s), was executed a second time: "
              + t.id(retry)
              + " besides "
              + t.id(a));
      t.effects().require(1, "a request still running and its retry", i.payload);
      return;
    }
    throw new NotRun(
        "in "
            + HOLD_ATTEMPTS
            + " attempts the first request ended before the retry was sent: the case proves"
            + " nothing");
  }

  /**
   * How long to hold a request so that it still runs once {@code wait} has passed on the server:
   * with a clock hook, a moment of real time while the clock jumps; without one, the whole wait and
   * a second more.
   */
  static long holdPast(Probe t, Duration wait) {
    return t.config("hook.clock") != null
        ? Math.max(1000, t.cfg.getLong("in-flight-delay-millis", 800))
        : wait.toMillis() + 1000;
  }

  static void keysSurviveARestart(Probe t) {
    Check.declared(t, "hook.restart", "a restart hook");
    Intent i = t.intent();
    Answer first = i.created("first");
    t.hooks().restart();
    Answer retry = i.replay("retry after restart");
    ReplayCases.requireSameOutcome(t, first, retry, "the retry after the restart");
    t.effects().expect(1, "one key across a restart", i.payload);
  }
}
