package dev.saferetry.conformance;

import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import okhttp3.OkHttpClient;

/**
 * Everything checked once before the Idempotency-Key cases run: that a normal create succeeds with
 * an id, and that every declared hook answers and does what it is declared to do (the counter
 * counts that create, each fault shows on the next create, the clock and restart hooks answer, the
 * second tenant and the extra operations work). Any problem is a {@link ConfigurationError}.
 */
final class IdempotencyPreflight {
  private static final long DELAY_MILLIS = 300;
  private static final Duration HANG_PROBE = Duration.ofMillis(400);
  private static final long HELD_MILLIS = 1000;

  private IdempotencyPreflight() {}

  static void run(Probe t) {
    oneOf(t, "key.format", "structured-field", "opaque");
    oneOf(t, "scope.other-endpoint", "execute", "reject", "either");
    oneOf(t, "validation-failure", "stored", "not-stored", "either");
    oneOf(t, "fault.5xx.retry", "success", "replay");
    try {
      resetLeftoverFaults(t);
      t.effects().begin();
      Intent first = t.intent();
      Answer created = created(t, first, "first create");
      if (t.effects().counted()) {
        long n = t.effects().count("that the counter counts", first.payload);
        require(
            n == 1,
            t.session.counter.property()
                + " counted "
                + n
                + " effects for the first create, not 1");
        t.effects().begin();
        long idle = t.effects().count("that the counter counts nothing else", t.newPayload());
        require(
            idle == 0,
            t.session.counter.property()
                + " counted "
                + idle
                + " effects where nothing was sent, not 0");
      }
      String id = t.id(created);
      optionalOperations(t, id, first.payload);
      faults(t);
      delayHoldsBeforeCommitting(t);
      timeHooks(t, first);
    } catch (HookFailure | UncheckedIOException | NotRun e) {
      throw new ConfigurationError(e.getMessage());
    }
  }

  private static Answer created(Probe t, Intent intent, String label) {
    Answer a =
        t.attempt(
            label,
            t.request(
                "POST", t.config("create.path"), intent.payload.json(), intent.key, t.tenant1()));
    require(
        !a.lost(),
        "the target does not answer ("
            + a.error()
            + "): is it running at "
            + t.session.baseUrl
            + "?");
    require(
        a.ok() && t.id(a) != null,
        label
            + " failed: got "
            + a.status()
            + (a.ok() ? " without an id at " + t.config("id.pointer") : "")
            + " (check create.path, create.payload, id.pointer and headers.*)");
    return a;
  }

  private static void oneOf(Probe t, String key, String... allowed) {
    String value = t.config(key);
    require(
        value == null || java.util.Arrays.asList(allowed).contains(value),
        key + " must be one of " + String.join(", ", allowed) + ", got " + value);
  }

  private static void optionalOperations(Probe t, String id, Payload payload) {
    require(
        t.tenant2().isEmpty() || !t.tenant2().equals(t.tenant1()),
        "tenant 2 sends exactly tenant 1's headers (tenant2.headers.*): the per-tenant cases would"
            + " compare a tenant with itself");
    if (!t.tenant2().isEmpty()) {
      Answer a =
          t.attempt(
              "tenant 2 create",
              t.request(
                  "POST", t.config("create.path"), t.newPayload().json(), t.newKey(), t.tenant2()));
      require(a.ok(), "tenant 2 cannot create (" + a.brief() + "): check tenant2.headers.*");
    }
    if (t.config("retrieve.path") != null) {
      Answer a =
          t.attempt(
              "retrieve",
              t.request(
                  "GET",
                  Payload.fill(t.config("retrieve.path"), payload.marker(), id),
                  null,
                  null,
                  t.tenant1()));
      require(
          a.ok() && id.equals(t.id(a)),
          "retrieve.path did not return the created resource (" + a.brief() + ")");
    }
    operation(t, "second", id, payload, "a 2xx");
    operation(t, "change", id, payload, "a 2xx");
    operation(t, "error", id, payload, "a 4xx");
  }

  /**
   * Runs {@code name.path}/{@code name.payload} once on the created resource, when declared. An
   * operation that succeeds is an effect the counter must see as the cases count it: a global
   * counter counts it once (the cross-endpoint cases expect that), a per-marker or list counter
   * does not count it under the created resource's marker.
   */
  private static void operation(Probe t, String name, String id, Payload created, String expected) {
    if (t.config(name + ".path") == null) {
      return;
    }
    String body = Payload.fill(t.config(name + ".payload"), t.session.unique("conformance"), id);
    t.effects().begin();
    Answer a =
        t.attempt(
            name + " operation",
            t.request("POST", t.config(name + ".path"), body, t.newKey(), t.tenant1()));
    boolean as = expected.equals("a 4xx") ? a.status() >= 400 && a.status() < 500 : a.ok();
    require(as, name + ".path/" + name + ".payload must answer " + expected + ", got " + a.brief());
    if (!a.ok() || !t.effects().counted()) {
      return;
    }
    String counter = t.session.counter.property();
    if (t.session.counter.mode() == EffectCounter.Mode.GLOBAL) {
      long n = t.effects().count("the " + name + " operation", created);
      require(
          n == 1,
          counter
              + " counted "
              + n
              + " effects for the "
              + name
              + " operation ("
              + name
              + ".path), not 1: the counter must see every operation the profile declares, or"
              + " the cases that send it would blame the server for what it does not count");
    } else {
      long n = t.effects().count("the created resource after the " + name + " operation", created);
      require(
          n == 1,
          counter
              + " counted "
              + n
              + " effects for the created resource after the "
              + name
              + " operation ("
              + name
              + ".path), not 1: it must count the create alone under its marker");
    }
  }

  private static void faults(Probe t) {
    if (t.hooks().has(FaultKind.DELAY)) {
      t.hooks().arm(FaultKind.DELAY, DELAY_MILLIS);
      Answer a = t.intent().send("create after delay hook");
      long ms = TimeUnit.NANOSECONDS.toMillis(a.endNanos() - a.startNanos());
      require(
          a.ok() && ms >= DELAY_MILLIS - 50,
          "hook.fault.delay did not delay the next create by "
              + DELAY_MILLIS
              + " ms ("
              + a.brief()
              + " after "
              + ms
              + " ms)");
    }
    failure(t, FaultKind.FAIL_BEFORE_COMMIT, 0);
    failure(t, FaultKind.FAIL_AFTER_COMMIT, 1);
    failure(t, FaultKind.UNHANDLED_EXCEPTION, 0);
    if (t.hooks().has(FaultKind.HANG)) {
      t.effects().begin();
      t.hooks().arm(FaultKind.HANG, 0);
      Intent i = t.intent();
      OkHttpClient impatient =
          t.session.http.newBuilder().readTimeout(HANG_PROBE).callTimeout(HANG_PROBE).build();
      Answer a =
          t.attempt(
              "create after hang hook",
              t.request("POST", t.config("create.path"), i.payload.json(), i.key, t.tenant1()),
              impatient,
              true);
      require(a.lost(), "hook.fault.hang did not hang the next create: it answered " + a.status());
      if (t.effects().counted()) {
        long n = t.effects().count("what the hung create committed", i.payload);
        require(
            n == 0,
            "hook.fault.hang committed the create before hanging (counted "
                + n
                + "): a hang must hold the request before it commits anything, or the lock cases"
                + " would count its effect as the server's second one");
      }
    }
  }

  private static void failure(Probe t, FaultKind kind, long effects) {
    if (!t.hooks().has(kind)) {
      return;
    }
    t.effects().begin(); // before arming: a counter that counts the hook itself is refused too
    t.hooks().arm(kind, 0);
    Intent i = t.intent();
    Answer a = i.send("create after " + kind + " hook");
    require(
        kind.answered(a, t.cfg),
        kind.property()
            + " did not make the next create answer "
            + kind.expected(t.cfg)
            + " (got "
            + a.brief()
            + ")");
    if (t.effects().counted()) {
      long n = t.effects().count("what the fault committed", i.payload);
      require(
          n == effects,
          kind.property()
              + " must "
              + (effects == 0 ? "commit nothing" : "commit the effect")
              + ", counted "
              + n);
    }
  }

  /** Disarms what an earlier run may have left armed, so that it cannot hit this run's creates. */
  private static void resetLeftoverFaults(Probe t) {
    String reset = t.config("hook.fault.reset");
    if (reset == null) {
      return;
    }
    HookTemplate hook = HookTemplate.parse("hook.fault.reset", reset);
    Answer a =
        t.attempt(
            "hook hook.fault.reset (whatever an earlier run left armed)",
            t.request(
                hook.method(), hook.url(Map.of()), hook.body(Map.of()), null, Hooks.headers(t)),
            t.session.http,
            false);
    require(
        !a.lost(),
        "the target does not answer ("
            + a.error()
            + "): is it running at "
            + t.session.baseUrl
            + "?");
    require(a.ok(), "hook.fault.reset answered " + a.brief() + ", not 2xx");
  }

  /**
   * With a counter, proves that {@code hook.fault.delay} holds the request before it commits (the
   * race, in-flight and lock cases rely on it): the counter, read while the delayed create is still
   * held, shows nothing yet, and one effect once it answered. A read that only ended after the
   * delay could have run out (a loaded machine) proves nothing: tried again with a longer delay,
   * then the profile is refused.
   */
  private static void delayHoldsBeforeCommitting(Probe t) {
    if (!t.hooks().has(FaultKind.DELAY) || !t.effects().counted()) {
      return;
    }
    for (int attempt = 1; attempt <= 3; attempt++) {
      long delay = HELD_MILLIS << (attempt - 1);
      t.effects().begin();
      t.hooks().arm(FaultKind.DELAY, delay);
      Intent i = t.intent();
      Concurrent.InFlight held =
          Concurrent.start(
              t,
              "create held by the delay hook (" + delay + " ms)",
              t.request("POST", t.config("create.path"), i.payload.json(), i.key, t.tenant1()),
              new java.util.concurrent.CountDownLatch(0));
      ConcurrencyCases.headStart();
      long whileHeld = t.effects().count("what the held create committed", i.payload);
      long readEnd = System.nanoTime();
      Answer a = held.await();
      require(a.ok(), "hook.fault.delay: the delayed create answered " + a.brief() + ", not a 2xx");
      if (readEnd - a.startNanos() >= TimeUnit.MILLISECONDS.toNanos(delay)) {
        t.note("attempt " + attempt + ": the counter was read only after the delay could end");
        continue;
      }
      require(
          whileHeld == 0,
          "hook.fault.delay committed the create before holding it (counted "
              + whileHeld
              + " while it was held): a delay must hold the request before it commits, or the"
              + " lock cases would blame the server for a second effect");
      long after = t.effects().count("what the delayed create committed", i.payload);
      require(
          after == 1,
          "hook.fault.delay: the delayed create answered "
              + a.status()
              + " but "
              + t.session.counter.property()
              + " counted "
              + after
              + " effects for it, not 1");
      return;
    }
    require(
        false,
        "hook.fault.delay: in three tries the counter could not be read while a delayed create was"
            + " held, so the preflight cannot show the delay holds it before it commits");
  }

  private static void timeHooks(Probe t, Intent first) {
    if (t.config("hook.clock") != null) {
      t.hooks()
          .send(HookTemplate.parse("hook.clock", t.config("hook.clock")), Map.of("seconds", "0"));
    }
    if (t.config("hook.restart") != null) {
      t.hooks().restart();
      Answer a = first.send("retry after restart hook");
      require(!a.lost(), "the target does not answer after hook.restart (" + a.error() + ")");
    }
  }

  private static void require(boolean condition, String message) {
    if (!condition) {
      throw new ConfigurationError(message);
    }
  }
}
