package dev.saferetry.conformance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Objects;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Payload comparison and key scope: a key means one request of one operation of one tenant.
 *
 * <p>Not thread-safe and need not be: JUnit creates an instance per case, run sequentially.
 */
@ExtendWith(ConformanceExtension.class)
public class ScopeCases {

  @Test
  @Case(
      id = "mismatch.rejected",
      level = Level.MUST,
      description =
          "Same key + different"
              + " payload is rejected (non-2xx), is not a replay, and creates nothing")
  void differentPayloadIsRejected(Target t) {
    String key = t.newKey();
    Target.Response first = t.create(key, t.newPayload().json());
    assertTrue(first.ok(), "first request must succeed, got " + first.status());
    Target.Payload other = t.newPayload();
    Target.Response reuse = t.create(key, other.json());
    assertFalse(reuse.ok(), "a different payload under a used key must be rejected");
    if (t.hooks().hasCounter()) {
      assertEquals(0, t.hooks().sideEffects(other.marker()), "side effects of the reuse");
    }
  }

  @Test
  @Case(
      id = "mismatch.status",
      level = Level.SHOULD,
      description =
          "The mismatch rejection"
              + " uses the profile's status (IETF 422; Stripe 400 with an idempotency error type)")
  void mismatchUsesConfiguredStatus(Target t) {
    String key = t.newKey();
    t.create(key, t.newPayload().json());
    Target.Response reuse = t.create(key, t.newPayload().json());
    assertEquals(t.cfg.getInt("status.mismatch", 422), reuse.status(), "mismatch status");
    String pointer = t.config("mismatch.error-pointer");
    if (pointer != null) {
      String type = reuse.json() == null ? null : reuse.json().at(pointer).asText(null);
      t.evidence.note(pointer + "=" + type);
      assertEquals(t.config("mismatch.error-value"), type, "mismatch error type");
    }
  }

  @Test
  @Case(
      id = "scope.per-tenant",
      level = Level.MUST,
      description =
          "Keys are scoped per"
              + " tenant: another tenant's same key + payload creates its own resource")
  void keysArePerTenant(Target t) {
    Assumptions.assumeFalse(t.tenant2().isEmpty(), "no second tenant (tenant2.headers.*)");
    String key = t.newKey();
    Target.Payload p = t.newPayload();
    Target.Response a = t.create(key, p.json());
    Target.Response b = t.post("tenant2", t.config("create.path"), p.json(), key, t.tenant2());
    assertTrue(a.ok() && b.ok(), "both tenants' requests must succeed");
    assertNotEquals(t.id(a), t.id(b), "tenant 2 must not receive tenant 1's resource");
  }

  @Test
  @Case(
      id = "scope.per-operation",
      level = Level.SHOULD,
      description =
          "Keys are scoped per"
              + " operation: the same key on another operation is executed as that operation")
  void keysArePerOperation(Target t) {
    Target.Response[] pair = createThenSecond(t);
    assertTrue(pair[1].ok(), "the second operation must succeed, got " + pair[1].status());
    assertNotEquals(pair[0].json(), pair[1].json(), "must not replay the first operation");
  }

  @Test
  @Case(
      id = "scope.cross-endpoint",
      level = Level.MUST,
      description =
          "The same key on" + " another endpoint never replays the first operation's outcome")
  void otherEndpointNeverReplaysTheWrongOperation(Target t) {
    Target.Response[] pair = createThenSecond(t);
    assertNotEquals(pair[0].json(), pair[1].json(), "replayed the wrong operation");
    assertFalse(
        pair[1].ok() && Objects.equals(t.id(pair[0]), t.id(pair[1])),
        "returned the first operation's resource id");
  }

  @Test
  @Case(
      id = "scope.query-string",
      level = Level.MUST,
      description = "The same key with an" + " added query string never creates a silent duplicate")
  void queryStringNeverCreatesADuplicate(Target t) {
    String key = t.newKey();
    Target.Payload p = t.newPayload();
    Target.Response first = t.create(key, p.json());
    String path = t.config("create.path");
    String probe = path + (path.contains("?") ? "&" : "?") + "conformance_probe=1";
    Target.Response second = t.post("create?probe", probe, p.json(), key, t.tenant1());
    assertFalse(
        second.ok() && !Objects.equals(t.id(first), t.id(second)),
        "a second resource was created under the same key");
    if (t.hooks().hasCounter()) {
      assertEquals(1, t.hooks().sideEffects(p.marker()), "side effects for one key");
    }
  }

  private static Target.Response[] createThenSecond(Target t) {
    Assumptions.assumeTrue(
        t.config("second.path") != null,
        "no second operation declared (second.path, second.payload)");
    String key = t.newKey();
    Target.Payload p = t.newPayload();
    Target.Response first = t.create(key, p.json());
    assertTrue(first.ok(), "first request must succeed, got " + first.status());
    Target.Response second =
        t.post(
            "second",
            t.config("second.path"),
            Target.fill(t.config("second.payload"), p.marker(), t.id(first)),
            key,
            t.tenant1());
    if (t.hooks().hasCounter()) {
      assertEquals(1, t.hooks().sideEffects(p.marker()), "side effects of the first operation");
    }
    return new Target.Response[] {first, second};
  }
}
