package dev.saferetry.conformance;

import static dev.saferetry.conformance.Check.require;

import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;

/** Retention: after the declared retention a key's record no longer counts. */
final class ExpiryCases {
  private static final int BURSTS = 3;

  private ExpiryCases() {}

  static List<CaseSpec> cases() {
    return List.of(
        CaseSpec.must(
                "expiry.kept-until-retention",
                "A retry shortly before the declared retention ends is still a faithful replay, not"
                    + " executed again",
                ExpiryCases::retryBeforeTheRetentionEndsIsReplayed)
            .after(ReplayCases.BASIC),
        CaseSpec.should(
            "expiry.late-retry-is-new",
            "A late retry after the server's declared retention is a new request",
            ExpiryCases::lateRetryAfterRetentionIsANewRequest),
        CaseSpec.must(
                "expiry.concurrent-retries",
                "Concurrent retries right after expiry produce at most one new resource and effect",
                ExpiryCases::concurrentRetriesAfterExpiryExecuteOnce)
            .after(ReplayCases.BASIC));
  }

  static void retryBeforeTheRetentionEndsIsReplayed(Probe t) {
    Duration retention = t.hooks().retention();
    Duration age = Hooks.shortlyBefore(retention, "retention");
    t.hooks().assumeTimeCanPass("retention", retention, age);
    Intent i = t.intent();
    Answer first = i.created("first");
    t.hooks().pass(age);
    Answer retry = i.replay("retry " + age.getSeconds() + "s later");
    require(
        !(retry.ok() && !Objects.equals(t.id(first), t.id(retry))),
        "the key was forgotten "
            + age.getSeconds()
            + "s after its first use, before the declared retention of "
            + retention.getSeconds()
            + "s: the retry was executed again and created "
            + t.id(retry));
    ReplayCases.requireSameOutcome(
        t,
        first,
        retry,
        "the retry "
            + age.getSeconds()
            + "s later (declared retention "
            + retention.getSeconds()
            + "s)");
    t.effects().expect(1, "one key within its retention", i.payload);
  }

  static void lateRetryAfterRetentionIsANewRequest(Probe t) {
    Duration retention = t.hooks().retention();
    t.hooks().assumeTimeCanPass("retention", retention, retention.plusSeconds(1));
    Intent i = t.intent();
    Answer first = i.created("first");
    t.hooks().pass(retention.plusSeconds(1));
    Answer late = i.send("late retry");
    require(late.ok(), "a late retry after the retention answered " + late.status());
    require(
        !Objects.equals(t.id(first), t.id(late)),
        "a late retry after the retention still replayed " + t.id(first));
  }

  static void concurrentRetriesAfterExpiryExecuteOnce(Probe t) {
    Duration retention = t.hooks().retention();
    t.hooks().assumeTimeCanPass("retention", retention, retention.plusSeconds(1));
    int n = t.cfg.getInt("concurrency", 16);
    for (int attempt = 1; attempt <= BURSTS; attempt++) {
      t.effects().begin();
      Intent i = t.intent();
      Answer first = i.created("first");
      t.hooks().pass(retention.plusSeconds(1));
      List<Answer> burst = ConcurrencyCases.race(t, i, n);
      if (Concurrent.overlapped(burst)) {
        Set<String> fresh = new TreeSet<>();
        burst.stream()
            .filter(Answer::ok)
            .map(t::id)
            .filter(id -> !Objects.equals(id, t.id(first)))
            .forEach(id -> fresh.add(String.valueOf(id)));
        require(
            fresh.size() <= 1,
            "concurrent retries after expiry created " + fresh.size() + " new resources " + fresh);
        long effects =
            t.effects().counted() ? t.effects().count("at most one new effect", i.payload) : -1;
        require(
            effects <= 2,
            "concurrent retries after expiry caused " + (effects - 1) + " new side effects");
        return;
      }
      t.note("burst " + attempt + ": the retries did not overlap");
    }
    throw new NotRun(
        "race not exercised: in " + BURSTS + " bursts of " + n + " the retries never overlapped");
  }
}
