package dev.saferetry.conformance;

import static dev.saferetry.conformance.Check.require;
import static dev.saferetry.conformance.Check.runOnlyIf;

import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import okhttp3.Request;

/** Races: concurrent requests with one key execute once. */
final class ConcurrencyCases {
  private static final int BURSTS = 3;
  private static final long HEAD_START_MILLIS = 150;

  private ConcurrencyCases() {}

  static List<CaseSpec> cases() {
    return List.of(
        CaseSpec.must(
                "concurrent.one-effect",
                "N concurrent requests (default 16) with one key yield one resource and one effect",
                ConcurrencyCases::concurrentRequestsExecuteOnce)
            .after(ReplayCases.BASIC),
        CaseSpec.must(
            "inflight.other-payload",
            "Another payload under the key of a request still in flight is not executed",
            ConcurrencyCases::otherPayloadWhileInFlightIsNotExecuted),
        CaseSpec.should(
            "concurrent.in-progress-status",
            "A request arriving while the first with its key still runs gets the in-progress"
                + " status (409)",
            ConcurrencyCases::secondRequestWhileFirstRunsGetsInProgress),
        CaseSpec.should(
            "in-progress.retry-after",
            "The in-progress answer carries Retry-After (seconds or an HTTP date)",
            ConcurrencyCases::inProgressAnswerCarriesRetryAfter));
  }

  static void concurrentRequestsExecuteOnce(Probe t) {
    int n = t.cfg.getInt("concurrency", 16);
    for (int attempt = 1; attempt <= BURSTS; attempt++) {
      t.effects().begin();
      Intent i = t.intent();
      List<Answer> burst = race(t, i, n);
      if (Concurrent.overlapped(burst)) {
        requireOneResource(t, i, burst);
        return;
      }
      t.note("burst " + attempt + ": the requests did not overlap");
    }
    throw new NotRun(
        "race not exercised: in " + BURSTS + " bursts of " + n + " the requests never overlapped");
  }

  /**
   * Sends {@code n} copies of the intent's first request at once, widening the window if it can.
   */
  static List<Answer> race(Probe t, Intent i, int n) {
    if (t.hooks().has(FaultKind.DELAY)) {
      t.hooks().arm(FaultKind.DELAY, t.cfg.getLong("race-delay-millis", 300));
    }
    Request request =
        t.request("POST", t.config("create.path"), i.payload.json(), i.key, t.tenant1());
    return Concurrent.burst(t, n, request);
  }

  /** Every 2xx carries one id, a retry afterwards replays it, and one effect was counted. */
  static void requireOneResource(Probe t, Intent i, List<Answer> burst) {
    Set<String> ids = new TreeSet<>();
    burst.stream().filter(Answer::ok).forEach(r -> ids.add(String.valueOf(t.id(r))));
    require(ids.size() <= 1, "concurrent requests with one key created distinct resources " + ids);
    Answer after = i.send("retry after the race");
    require(
        !(after.ok() && !ids.isEmpty() && !ids.contains(t.id(after))),
        "the retry after the race created " + t.id(after) + " besides the race's resource " + ids);
    Check.requireReplay(after.ok(), "a retry after the race answered " + after.status());
    t.effects().require(1, "one key raced by " + burst.size() + " requests", i.payload);
  }

  static void otherPayloadWhileInFlightIsNotExecuted(Probe t) {
    for (int attempt = 1; attempt <= BURSTS; attempt++) {
      // A loaded machine may start the first request late, or send the second late: each attempt
      // gives the first a longer head start and a longer delay.
      long delay = t.cfg.getLong("in-flight-delay-millis", 800) << (attempt - 1);
      t.effects().begin();
      t.hooks().arm(FaultKind.DELAY, delay);
      Intent i = t.intent();
      Payload other = t.newPayload();
      Concurrent.InFlight first =
          Concurrent.start(
              t,
              "first (delayed " + delay + " ms)",
              t.request("POST", t.config("create.path"), i.payload.json(), i.key, t.tenant1()),
              new CountDownLatch(0));
      headStart(HEAD_START_MILLIS << (attempt - 1));
      Answer b = i.sendWith("same key, other payload, while the first runs", other);
      Answer a = first.await();
      t.note("first→" + a.brief());
      if (!metTheFirstRunning(a, b, delay)) {
        t.note("attempt " + attempt + ": the second request did not meet the first one running");
        t.hooks().resetIfArmed();
        continue;
      }
      Rejections.requireAboutTheRequest(b, "the other payload while the first ran");
      require(
          !b.ok(),
          "the other payload was executed ("
              + b.status()
              + ", "
              + t.id(b)
              + ") under a key whose first request was still in flight");
      runOnlyIf(a.ok(), "the first request was not accepted (" + a.brief() + ")");
      t.effects().require(1, "the first payload only", i.payload, other);
      return;
    }
    throw new NotRun(
        "in "
            + BURSTS
            + " attempts the second request never met the first one running: the case proves"
            + " nothing");
  }

  /**
   * Whether B was handled while A ran. The delay fault slows whichever request executes first: a
   * slow successful B overtook A. A refused B was handled while A ran if it was answered before A,
   * or held by the server for a good part of A's delay (it waited for A).
   */
  private static boolean metTheFirstRunning(Answer a, Answer b, long delay) {
    if (b.ok()) {
      return millis(b) < delay;
    }
    return b.endNanos() < a.endNanos() || millis(b) >= delay / 2;
  }

  private static long millis(Answer a) {
    return TimeUnit.NANOSECONDS.toMillis(a.endNanos() - a.startNanos());
  }

  /** Lets a request started on another thread claim its key first. */
  static void headStart() {
    headStart(HEAD_START_MILLIS);
  }

  private static void headStart(long millis) {
    try {
      TimeUnit.MILLISECONDS.sleep(millis); // let the first request claim its key
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  /**
   * Two requests with one key while the handler is delayed: {a, b}. When both got the same resource
   * and the later one was answered at once, it only arrived once the first had ended (a loaded
   * machine): tried again with a longer delay, at most three times, then NOT RUN.
   */
  private static Answer[] pair(Probe t) {
    for (int attempt = 1; attempt <= BURSTS; attempt++) {
      long delay = t.cfg.getLong("in-flight-delay-millis", 800) << (attempt - 1);
      t.hooks().arm(FaultKind.DELAY, delay);
      Intent i = t.intent();
      Request request =
          t.request("POST", t.config("create.path"), i.payload.json(), i.key, t.tenant1());
      CountDownLatch gate = new CountDownLatch(1);
      Concurrent.InFlight a = Concurrent.start(t, "request A", request, gate);
      Concurrent.InFlight b = Concurrent.start(t, "request B", request, gate);
      gate.countDown();
      Answer[] both = {a.await(), b.await()};
      t.note("statuses " + both[0].brief() + ", " + both[1].brief());
      Answer later = both[0].endNanos() > both[1].endNanos() ? both[0] : both[1];
      boolean oneAfterTheOther =
          both[0].ok()
              && both[1].ok()
              && Objects.equals(t.id(both[0]), t.id(both[1]))
              && millis(later) < delay / 2;
      if (!oneAfterTheOther) {
        return both;
      }
      t.note("attempt " + attempt + ": the second request arrived after the first had ended");
    }
    throw new NotRun(
        "in " + BURSTS + " attempts the second request arrived after the first had ended");
  }

  static void secondRequestWhileFirstRunsGetsInProgress(Probe t) {
    Answer[] both = pair(t);
    int inProgress = t.cfg.getInt("status.in-progress", 409);
    boolean oneRanOneWaited =
        both[0].ok() && both[1].status() == inProgress
            || both[1].ok() && both[0].status() == inProgress;
    require(
        oneRanOneWaited,
        "expected one 2xx and one "
            + inProgress
            + ", got "
            + both[0].brief()
            + " and "
            + both[1].brief());
  }

  static void inProgressAnswerCarriesRetryAfter(Probe t) {
    Answer[] both = pair(t);
    int inProgress = t.cfg.getInt("status.in-progress", 409);
    Answer waited =
        both[0].status() == inProgress ? both[0] : both[1].status() == inProgress ? both[1] : null;
    runOnlyIf(
        waited != null,
        "no in-progress answer to inspect (" + both[0].brief() + ", " + both[1].brief() + ")");
    String retryAfter = waited.header("Retry-After");
    t.note("Retry-After: " + retryAfter);
    require(
        retryAfter != null && validRetryAfter(retryAfter),
        "the in-progress answer has "
            + (retryAfter == null
                ? "no Retry-After"
                : "an invalid Retry-After '" + retryAfter + "'"));
  }

  static boolean validRetryAfter(String value) {
    if (value.strip().matches("\\d{1,9}")) {
      return true;
    }
    try {
      java.time.format.DateTimeFormatter.RFC_1123_DATE_TIME.parse(value.strip());
      return true;
    } catch (java.time.format.DateTimeParseException e) {
      return false;
    }
  }
}
