package dev.saferetry.conformance;

import com.fasterxml.jackson.core.JsonPointer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import okhttp3.MediaType;
import okhttp3.Request;
import okhttp3.RequestBody;
import org.junit.jupiter.api.Assumptions;

/**
 * The optional cooperation a target may declare: side-effect counter, fault hook, clock hook,
 * restart hook, lock timeout and retention. Cases that need an undeclared one are skipped with the
 * reason. Thread-safe.
 */
public final class Hooks {
  private final Target target;

  Hooks(Target target) {
    this.target = target;
  }

  /** Side effects recorded for {@code marker}; skips the case when no counter is declared. */
  public long sideEffects(String marker) {
    String url = require("side-effects.url", "a side-effect counter (side-effects.url)");
    try (okhttp3.Response r =
        target
            .http()
            .newCall(
                new Request.Builder()
                    .url(target.url(Target.fill(url, marker, "")))
                    .headers(headers())
                    .build())
            .execute()) {
      com.fasterxml.jackson.databind.JsonNode body = Target.parse(Target.readBody(r));
      long count =
          r.code() != 200 || body == null
              ? -1
              : body.at(JsonPointer.compile(target.config("side-effects.pointer"))).asLong(-1);
      target.evidence.note("effects=" + count);
      return count;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Whether a side-effect counter is declared. */
  public boolean hasCounter() {
    return target.config("side-effects.url") != null;
  }

  /** Arms a fault ({@code {"fault":"delay","millis":300}} etc.); skips when no hook. */
  public void arm(String faultJson) {
    post(require("fault.url", "a fault hook (fault.url)"), faultJson);
  }

  /** Whether a fault hook is declared. */
  public boolean hasFaults() {
    return target.config("fault.url") != null;
  }

  /** Simulates a server restart; skips when no restart hook is declared. */
  public void restart() {
    post(require("restart.url", "a restart hook (restart.url)"), "{}");
  }

  /** The declared lock timeout; skips when undeclared. */
  public Duration lockTimeout() {
    return Duration.ofSeconds(
        Long.parseLong(require("lock-timeout-seconds", "the lock timeout (lock-timeout-seconds)")));
  }

  /** The declared retention; skips when undeclared. */
  public Duration retention() {
    return Duration.ofSeconds(
        Long.parseLong(require("retention-seconds", "the retention (retention-seconds)")));
  }

  /** Skips unless time can pass by {@code d}: via the clock hook, or by waiting if short. */
  public void assumeTimeCanPass(Duration d) {
    int maxWait = target.cfg.getInt("max-wait-seconds", 20);
    Assumptions.assumeTrue(
        target.config("clock.url") != null || d.getSeconds() < maxWait,
        "needs a clock hook (clock.url) or a declared time under max-wait-seconds=" + maxWait);
  }

  /** Lets {@code d} pass on the server: advances its clock, or really waits. */
  public void pass(Duration d) {
    assumeTimeCanPass(d);
    String clock = target.config("clock.url");
    target.evidence.note("time+" + d.getSeconds() + "s");
    if (clock != null) {
      post(clock, "{\"advance_seconds\":" + d.getSeconds() + "}");
      return;
    }
    try {
      TimeUnit.MILLISECONDS.sleep(d.toMillis()); // a real server without a clock hook
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while waiting for the server's timeout", e);
    }
  }

  private String require(String key, String what) {
    String value = target.config(key);
    Assumptions.assumeTrue(value != null, "needs " + what + ", not declared by the target");
    return value;
  }

  private okhttp3.Headers headers() {
    okhttp3.Headers.Builder b = new okhttp3.Headers.Builder();
    Map<String, String> tenant = target.tenant1();
    tenant.forEach(b::set);
    return b.build();
  }

  private void post(String url, String json) {
    Request request =
        new Request.Builder()
            .url(target.url(url))
            .headers(headers())
            .post(RequestBody.create(json, MediaType.get("application/json")))
            .build();
    try (okhttp3.Response r = target.http().newCall(request).execute()) {
      if (r.code() >= 300) {
        throw new IllegalStateException("hook " + url + " answered " + r.code());
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
