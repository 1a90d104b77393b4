package dev.saferetry.conformance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CountDownLatch;
import okhttp3.Request;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Races: concurrent requests with one key execute once.
 *
 * <p>Not thread-safe and need not be: JUnit creates an instance per case, run sequentially.
 */
@ExtendWith(ConformanceExtension.class)
public class ConcurrencyCases {

  @Test
  @Case(
      id = "concurrent.one-effect",
      level = Level.MUST,
      description =
          "N concurrent requests"
              + " with one key yield one resource: every 2xx has the same id, the rest are 409")
  void concurrentRequestsExecuteOnce(Target t) {
    String key = t.newKey();
    Target.Payload p = t.newPayload();
    if (t.hooks().hasFaults()) {
      t.hooks().arm("{\"fault\":\"delay\",\"millis\":300}"); // widen the race window
    }
    int n = t.cfg.getInt("concurrency", 8);
    Request request = t.request(t.config("create.path"), p.json(), key, t.tenant1());
    List<Target.Response> burst = Concurrent.burst(t, n, request);
    assertOneResource(t, key, p, burst);
  }

  /** Every 2xx carries one id, the rest are in-progress, and a final retry replays it. */
  static void assertOneResource(
      Target t, String key, Target.Payload p, List<Target.Response> burst) {
    int inProgress = t.cfg.getInt("status.in-progress", 409);
    Set<String> ids = new TreeSet<>();
    for (Target.Response r : burst) {
      if (r.ok()) {
        ids.add(String.valueOf(t.id(r)));
      } else {
        assertTrue(
            r.status() == inProgress || r.status() == 409,
            "a concurrent duplicate must get 2xx (replay) or in-progress, got " + r.status());
      }
    }
    assertTrue(ids.size() <= 1, "concurrent requests created distinct resources " + ids);
    Target.Response after = t.create(key, p.json());
    assertTrue(after.ok(), "a retry after the race must succeed, got " + after.status());
    assertTrue(ids.isEmpty() || ids.contains(t.id(after)), "retry replays the race's resource");
    if (t.hooks().hasCounter()) {
      assertEquals(1, t.hooks().sideEffects(p.marker()), "side effects for one key");
    }
  }

  @Test
  @Case(
      id = "concurrent.in-progress-status",
      level = Level.SHOULD,
      description =
          "A request"
              + " arriving while the first with its key still runs gets the in-progress status (409)")
  void secondRequestWhileFirstRunsGetsInProgress(Target t) {
    t.hooks().arm("{\"fault\":\"delay\",\"millis\":1500}");
    String key = t.newKey();
    Target.Payload p = t.newPayload();
    Request request = t.request(t.config("create.path"), p.json(), key, t.tenant1());
    CountDownLatch gate = new CountDownLatch(1);
    Concurrent.InFlight a = Concurrent.start(t, request, gate);
    Concurrent.InFlight b = Concurrent.start(t, request, gate);
    gate.countDown();
    int sa = a.await().status();
    int sb = b.await().status();
    t.evidence.note("statuses " + sa + "," + sb);
    int inProgress = t.cfg.getInt("status.in-progress", 409);
    boolean oneRanOneWaited =
        (sa / 100 == 2 && sb == inProgress) || (sb / 100 == 2 && sa == inProgress);
    assertTrue(oneRanOneWaited, "expected one 2xx and one " + inProgress);
  }
}
