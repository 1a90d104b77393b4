package dev.saferetry.conformance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The key itself: required, bounded, and accepted in the draft's Structured Field syntax.
 *
 * <p>Not thread-safe and need not be: JUnit creates an instance per case, run sequentially.
 */
@ExtendWith(ConformanceExtension.class)
public class KeySyntaxCases {

  @Test
  @Case(
      id = "key.missing",
      level = Level.SHOULD,
      description =
          "A missing key on an endpoint"
              + " that requires one is rejected (IETF: 400) and creates nothing")
  void missingKeyIsRejected(Target t) {
    Assumptions.assumeTrue(
        t.cfg.getBoolean("require-key", true),
        "the target does not require keys (require-key=false)");
    rejected(t, null, "status.missing-key");
  }

  @Test
  @Case(
      id = "key.empty",
      level = Level.SHOULD,
      description = "An empty key is rejected (400) and creates nothing")
  void emptyKeyIsRejected(Target t) {
    rejected(t, "", "status.invalid-key");
  }

  @Test
  @Case(
      id = "key.too-long",
      level = Level.SHOULD,
      description = "A key longer than 255 characters is rejected (400) and creates nothing")
  void overLongKeyIsRejected(Target t) {
    rejected(t, "k".repeat(256), "status.invalid-key");
  }

  @Test
  @Case(
      id = "key.structured-field",
      level = Level.MAY,
      description =
          "The key is accepted"
              + " as a quoted Structured Field string, and \"abc\" and abc denote the same key")
  void quotedAndBareKeysAreTheSame(Target t) {
    String key = t.newKey();
    Target.Payload p = t.newPayload();
    Target.Response quoted = t.create("\"" + key + "\"", p.json());
    assertTrue(quoted.ok(), "a quoted key must be accepted, got " + quoted.status());
    Target.Response bare = t.create(key, p.json());
    assertEquals(t.id(quoted), t.id(bare), "quoted and bare forms must be the same key");
  }

  private static void rejected(Target t, String key, String statusKey) {
    Target.Payload p = t.newPayload();
    Target.Response response = t.create(key, p.json());
    assertEquals(t.cfg.getInt(statusKey, 400), response.status(), "rejection status");
    if (t.hooks().hasCounter()) {
      assertEquals(0, t.hooks().sideEffects(p.marker()), "side effects of a rejected request");
    }
  }
}
