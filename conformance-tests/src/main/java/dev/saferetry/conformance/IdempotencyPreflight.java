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

  private IdempotencyPreflight() {}

  static void run(Probe t) {
    oneOf(t, "key.format", "structured-field", "opaque");
    oneOf(t, "scope.other-endpoint", "execute", "reject", "either");
    oneOf(t, "validation-failure", "stored", "not-stored", "either");
    oneOf(t, "fault.5xx.retry", "success", "replay");
    try {
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
    operation(t, "second", id, "a 2xx");
    operation(t, "change", id, "a 2xx");
    operation(t, "error", id, "a 4xx");
  }

  /** Runs {@code name.path}/{@code name.payload} once on the created resource, when declared. */
  private static void operation(Probe t, String name, String id, String expected) {
    if (t.config(name + ".path") == null) {
      return;
    }
    String body = Payload.fill(t.config(name + ".payload"), t.session.unique("conformance"), id);
    Answer a =
        t.attempt(
            name + " operation",
            t.request("POST", t.config(name + ".path"), body, t.newKey(), t.tenant1()));
    boolean as = expected.equals("a 4xx") ? a.status() >= 400 && a.status() < 500 : a.ok();
    require(as, name + ".path/" + name + ".payload must answer " + expected + ", got " + a.brief());
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
    }
  }

  private static void failure(Probe t, FaultKind kind, long effects) {
    if (!t.hooks().has(kind)) {
      return;
    }
    t.hooks().arm(kind, 0);
    Intent i = t.intent();
    t.effects().begin();
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
