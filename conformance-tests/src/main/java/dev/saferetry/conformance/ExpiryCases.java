package dev.saferetry.conformance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import okhttp3.Request;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Retention: after the declared retention a key's record no longer counts.
 *
 * <p>Not thread-safe and need not be: JUnit creates an instance per case, run sequentially.
 */
@ExtendWith(ConformanceExtension.class)
public class ExpiryCases {

  @Test
  @Case(
      id = "expiry.late-retry-is-new",
      level = Level.SHOULD,
      description = "A late retry" + " after the server's declared retention is a new request")
  void lateRetryAfterRetentionIsANewRequest(Target t) {
    Duration retention = t.hooks().retention();
    t.hooks().assumeTimeCanPass(retention);
    String key = t.newKey();
    Target.Payload p = t.newPayload();
    Target.Response first = t.create(key, p.json());
    t.hooks().pass(retention.plusSeconds(1));
    Target.Response late = t.create(key, p.json());
    assertTrue(first.ok() && late.ok(), "both requests must succeed");
    assertNotEquals(t.id(first), t.id(late), "a late retry creates a new resource");
  }

  @Test
  @Case(
      id = "expiry.concurrent-retries",
      level = Level.MUST,
      description =
          "Concurrent" + " retries right after expiry still produce exactly one new effect")
  void concurrentRetriesAfterExpiryExecuteOnce(Target t) {
    Duration retention = t.hooks().retention();
    t.hooks().assumeTimeCanPass(retention);
    Assumptions.assumeTrue(
        t.hooks().hasCounter(), "target declares no side-effect counter (side-effects.url)");
    String key = t.newKey();
    Target.Payload p = t.newPayload();
    Target.Response first = t.create(key, p.json());
    assertTrue(first.ok(), "first request must succeed, got " + first.status());
    t.hooks().pass(retention.plusSeconds(1));
    if (t.hooks().hasFaults()) {
      t.hooks().arm("{\"fault\":\"delay\",\"millis\":300}");
    }
    Request request = t.request(t.config("create.path"), p.json(), key, t.tenant1());
    List<Target.Response> burst = Concurrent.burst(t, t.cfg.getInt("concurrency", 8), request);
    Set<String> ids = new TreeSet<>();
    burst.stream().filter(Target.Response::ok).forEach(r -> ids.add(String.valueOf(t.id(r))));
    assertTrue(ids.size() <= 1, "concurrent post-expiry retries created " + ids);
    assertEquals(2, t.hooks().sideEffects(p.marker()), "one original + exactly one new effect");
  }
}
