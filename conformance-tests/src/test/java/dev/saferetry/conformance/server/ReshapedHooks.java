package dev.saferetry.conformance.server;

import java.net.URI;
import java.sql.SQLException;
import java.time.Duration;

/**
 * Test hooks in other shapes than the reference's, as a user's own test server might offer them:
 * only a global counter, fault hooks taking another request shape, and a clock hook that also lets
 * a {@link HungReleaseFlow} end hung requests.
 */
final class ReshapedHooks {
  private ReshapedHooks() {}

  /** No per-marker counter: only {@code GET /_test/effects/total} → {@code {"count":{"all":N}}}. */
  static TestHooks globalCounterOnly(TestHooks base) {
    return new TestHooks(base) {
      @Override
      Reply handle(String method, URI uri, byte[] body) throws SQLException {
        String route = method + " " + uri.getPath();
        if (route.equals("GET /_test/side-effects")) {
          return Reply.of(404, Json.error("invalid_request_error", "not_found", "Unknown hook"));
        }
        if (route.equals("GET /_test/effects/total")) {
          return Reply.of(200, "{\"count\":{\"all\":" + count(db, null) + "}}");
        }
        return super.handle(method, uri, body);
      }
    };
  }

  /**
   * Faults armed by {@code PUT
   * /_test/chaos/{pause|fail-early|commit-then-fail|stall|explode}?code=N&ms=M} without a body,
   * cleared by {@code POST /_test/chaos/clear}; the clock moved by {@code PATCH /_test/time} with
   * {@code {"plus":N}}; a restart by {@code PUT /_test/reboot}. Nothing else.
   */
  static TestHooks otherShape(TestHooks base) {
    return new TestHooks(base) {
      @Override
      Reply handle(String method, URI uri, byte[] body) throws SQLException {
        String path = uri.getPath();
        if (method.equals("PUT") && path.startsWith("/_test/chaos/")) {
          Fault fault = chaos(path.substring("/_test/chaos/".length()), uri);
          if (fault == null) {
            return Reply.invalid("unknown chaos mode");
          }
          faults.next(fault);
          return Reply.of(204, "");
        }
        if (method.equals("POST") && path.equals("/_test/chaos/clear")) {
          faults.clear();
          return Reply.of(204, "");
        }
        if (method.equals("PATCH") && path.equals("/_test/time")) {
          clock.advance(Duration.ofSeconds(Json.parseObject(body).path("plus").asLong()));
          return Reply.of(200, "{}");
        }
        if (method.equals("PUT") && path.equals("/_test/reboot")) {
          flow.onRestart();
          return Reply.of(200, "{}");
        }
        return Reply.of(404, Json.error("invalid_request_error", "not_found", "Unknown hook"));
      }
    };
  }

  private static Fault chaos(String mode, URI uri) {
    String code = TestHooks.param(uri, "code");
    String ms = TestHooks.param(uri, "ms");
    return switch (mode) {
      case "pause" -> Fault.delay(Duration.ofMillis(Long.parseLong(ms)));
      case "fail-early" -> Fault.failBeforeCommit(Integer.parseInt(code));
      case "commit-then-fail" -> Fault.failAfterCommit(Integer.parseInt(code));
      case "stall" -> Fault.hang();
      case "explode" -> Fault.unhandledException();
      default -> null;
    };
  }

  /** The reference hooks, plus: moving the clock ends hung requests whose timeout passed. */
  static TestHooks reapingOnClock(TestHooks base) {
    return new TestHooks(base) {
      @Override
      Reply handle(String method, URI uri, byte[] body) throws SQLException {
        Reply reply = super.handle(method, uri, body);
        if (uri.getPath().equals("/_test/clock") && flow instanceof HungReleaseFlow f) {
          f.reap();
        }
        return reply;
      }
    };
  }
}
