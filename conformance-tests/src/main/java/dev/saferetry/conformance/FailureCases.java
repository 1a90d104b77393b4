package dev.saferetry.conformance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import okhttp3.Request;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Failures between commit and client: lost responses, 5xx, hung requests, restarts.
 *
 * <p>Not thread-safe and need not be: JUnit creates an instance per case, run sequentially.
 */
@ExtendWith(ConformanceExtension.class)
public class FailureCases {

  @Test
  @Case(
      id = "lost-response.retry-replays",
      level = Level.MUST,
      description =
          "A response lost"
              + " after the server committed (dropped by the suite's proxy) is replayed on retry")
  void lostResponseIsReplayedOnRetry(Target t) {
    String key = t.newKey();
    Target.Payload p = t.newPayload();
    try (LossyProxy proxy = new LossyProxy(t.session.baseUrl, t.http())) {
      Request viaProxy =
          t.request(proxy.baseUrl() + t.config("create.path"), p.json(), key, t.tenant1());
      assertThrows(
          IOException.class,
          () -> t.call(viaProxy).execute().close(),
          "the proxy must drop the response");
      List<Target.Response> lost = proxy.swallowed();
      assertEquals(1, lost.size(), "the proxy forwarded the request once");
      t.evidence.note("lost→" + lost.get(0).status() + "(" + t.id(lost.get(0)) + ")");
      assertTrue(lost.get(0).ok(), "the server must have succeeded behind the proxy");
      Target.Response retry = t.create(key, p.json());
      assertEquals(lost.get(0).status(), retry.status(), "retry replays the lost status");
      assertEquals(t.id(lost.get(0)), t.id(retry), "retry replays the lost resource");
    }
    if (t.hooks().hasCounter()) {
      assertEquals(1, t.hooks().sideEffects(p.marker()), "side effects after a lost response");
    }
  }

  @Test
  @Case(
      id = "fault.5xx-after-commit",
      level = Level.MUST,
      description =
          "A 5xx returned after"
              + " the side effect was committed does not lead to a second effect on retry")
  void fiveHundredAfterCommitIsNotExecutedTwice(Target t) {
    org.junit.jupiter.api.Assumptions.assumeTrue(
        t.hooks().hasCounter(), "target declares no side-effect counter (side-effects.url)");
    t.hooks().arm("{\"fault\":\"fail_after_commit\",\"status\":500}");
    String key = t.newKey();
    Target.Payload p = t.newPayload();
    Target.Response failed = t.create(key, p.json());
    assertEquals(500, failed.status(), "the armed fault must answer 500");
    Target.Response retry = t.create(key, p.json());
    assertTrue(retry.ok(), "the retry must succeed (replay), got " + retry.status());
    assertEquals(1, t.hooks().sideEffects(p.marker()), "side effects after 500 + retry");
  }

  @Test
  @Case(
      id = "fault.5xx-before-commit",
      level = Level.MUST,
      description =
          "A 5xx before" + " anything was committed is not stored: the retry executes exactly once")
  void fiveHundredBeforeCommitLetsTheRetryExecute(Target t) {
    t.hooks().arm("{\"fault\":\"fail_before_commit\",\"status\":503}");
    String key = t.newKey();
    Target.Payload p = t.newPayload();
    Target.Response failed = t.create(key, p.json());
    assertEquals(503, failed.status(), "the armed fault must answer 503");
    Target.Response retry = t.create(key, p.json());
    assertTrue(retry.ok(), "the key must not stay failed: retry got " + retry.status());
    if (t.hooks().hasCounter()) {
      assertEquals(1, t.hooks().sideEffects(p.marker()), "side effects after 503 + retry");
    }
  }

  @Test
  @Case(
      id = "lock.never-finishing-request",
      level = Level.MUST,
      description =
          "A request that"
              + " never finishes does not wedge its key beyond the declared lock timeout")
  void hungRequestReleasesItsKeyAfterTheLockTimeout(Target t) {
    Duration lockTimeout = t.hooks().lockTimeout();
    t.hooks().assumeTimeCanPass(lockTimeout);
    t.hooks().arm("{\"fault\":\"hang\"}");
    String key = t.newKey();
    Target.Payload p = t.newPayload();
    Request request = t.request(t.config("create.path"), p.json(), key, t.tenant1());
    CountDownLatch gate = new CountDownLatch(1);
    Concurrent.InFlight a = Concurrent.start(t, request, gate);
    Concurrent.InFlight b = Concurrent.start(t, request, gate);
    gate.countDown();
    Concurrent.InFlight[] order = Concurrent.firstDone(a, b);
    Concurrent.InFlight hung = order[1];
    Target.Response answered = order[0].await();
    assertTrue(!hung.result().isDone(), "one of the two requests must still be hanging");
    t.evidence.note("while hung→" + answered.status());
    assertEquals(
        t.cfg.getInt("status.in-progress", 409),
        answered.status(),
        "a retry while the first request hangs gets the in-progress status");
    t.hooks().pass(lockTimeout.plusSeconds(1));
    Target.Response retry = t.create(key, p.json());
    hung.call().cancel();
    assertTrue(retry.ok(), "after the lock timeout a retry must execute, got " + retry.status());
    Target.Response replay = t.create(key, p.json());
    assertEquals(t.id(retry), t.id(replay), "the retry's outcome is then replayed");
    if (t.hooks().hasCounter()) {
      assertEquals(1, t.hooks().sideEffects(p.marker()), "side effects after the takeover");
    }
  }

  @Test
  @Case(
      id = "durability.restart",
      level = Level.MUST,
      description =
          "Keys survive a server"
              + " restart: a retry after the restart replays instead of executing again")
  void keysSurviveARestart(Target t) {
    String key = t.newKey();
    Target.Payload p = t.newPayload();
    Target.Response first = t.create(key, p.json());
    t.hooks().restart();
    Target.Response retry = t.create(key, p.json());
    assertTrue(first.ok() && retry.ok(), "both requests must succeed");
    assertEquals(t.id(first), t.id(retry), "the retry after restart must replay");
    assertNotEquals(null, t.id(retry), "create response carries an id");
  }
}
