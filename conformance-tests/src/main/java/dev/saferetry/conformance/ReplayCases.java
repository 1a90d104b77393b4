package dev.saferetry.conformance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Replay behaviour: the stored outcome comes back, and only once is anything done.
 *
 * <p>Not thread-safe and need not be: JUnit creates an instance per case, run sequentially.
 */
@ExtendWith(ConformanceExtension.class)
public class ReplayCases {

  @Test
  @Case(
      id = "replay.same-payload",
      level = Level.MUST,
      description =
          "Same key + same payload"
              + " replays the same status, a semantically equal body and the same resource id")
  void sameKeySamePayloadReplays(Target t) {
    String key = t.newKey();
    Target.Payload p = t.newPayload();
    Target.Response first = t.create(key, p.json());
    Target.Response replay = t.create(key, p.json());
    assertTrue(first.ok(), "first request must succeed, got " + first.status());
    assertEquals(first.status(), replay.status(), "replay status");
    assertEquals(t.id(first), t.id(replay), "replay resource id");
    assertEquals(first.json(), replay.json(), "replay body must equal the original");
    if (t.hooks().hasCounter()) {
      assertEquals(1, t.hooks().sideEffects(p.marker()), "side effects for one key");
    }
  }

  @Test
  @Case(
      id = "keys.distinct-resources",
      level = Level.MUST,
      description = "Different keys with the same payload create distinct resources")
  void distinctKeysCreateDistinctResources(Target t) {
    Target.Payload p = t.newPayload();
    Target.Response a = t.create(t.newKey(), p.json());
    Target.Response b = t.create(t.newKey(), p.json());
    assertTrue(a.ok() && b.ok(), "both requests must succeed");
    assertNotNull(t.id(a), "create response carries an id at " + t.config("id.pointer"));
    assertNotEquals(t.id(a), t.id(b), "two keys must give two resources");
    if (t.hooks().hasCounter()) {
      assertEquals(2, t.hooks().sideEffects(p.marker()), "side effects for two keys");
    }
  }

  @Test
  @Case(
      id = "replay.after-change",
      level = Level.MUST,
      description =
          "A replay after the"
              + " resource changed still returns the original outcome, not the current resource")
  void replayAfterChangeReturnsOriginal(Target t) {
    Assumptions.assumeTrue(
        t.config("change.path") != null,
        "no change operation declared (change.path, change.payload)");
    String key = t.newKey();
    Target.Payload p = t.newPayload();
    Target.Response first = t.create(key, p.json());
    assertTrue(first.ok(), "first request must succeed, got " + first.status());
    Target.Response change =
        t.post(
            "change",
            t.config("change.path"),
            Target.fill(t.config("change.payload"), p.marker(), t.id(first)),
            t.newKey(),
            t.tenant1());
    assertTrue(change.ok(), "the change operation must succeed, got " + change.status());
    Target.Response replay = t.create(key, p.json());
    assertEquals(first.status(), replay.status(), "replay status");
    assertEquals(first.json(), replay.json(), "replay must return the original body");
  }

  @Test
  @Case(
      id = "replay.headers",
      level = Level.SHOULD,
      description = "A replay keeps meaningful headers such as Location")
  void replayKeepsLocation(Target t) {
    String key = t.newKey();
    Target.Payload p = t.newPayload();
    Target.Response first = t.create(key, p.json());
    Assumptions.assumeTrue(
        first.header("Location") != null, "the original response has no Location header");
    Target.Response replay = t.create(key, p.json());
    t.evidence.note("Location " + (replay.header("Location") == null ? "missing" : "kept"));
    assertEquals(first.header("Location"), replay.header("Location"), "replayed Location");
  }

  @Test
  @Case(
      id = "replay.marker",
      level = Level.MAY,
      description =
          "A replay carries the replay"
              + " marker header (e.g. Idempotent-Replayed) and the original response does not")
  void replayIsMarked(Target t) {
    String header = t.config("replay.header");
    Assumptions.assumeTrue(header != null, "no replay marker declared (replay.header)");
    String key = t.newKey();
    Target.Payload p = t.newPayload();
    Target.Response first = t.create(key, p.json());
    Target.Response replay = t.create(key, p.json());
    t.evidence.note(
        header + ": original=" + first.header(header) + " replay=" + replay.header(header));
    assertNotNull(replay.header(header), "replay marker " + header + " on the replay");
    assertEquals(null, first.header(header), "no replay marker on the original response");
  }

  @Test
  @Case(
      id = "payload.json-normalised",
      level = Level.SHOULD,
      description =
          "Semantically"
              + " identical JSON (other key order, whitespace) is treated as the same payload")
  void reorderedJsonIsTheSamePayload(Target t) {
    String key = t.newKey();
    Target.Payload p = t.newPayload();
    Target.Response first = t.create(key, p.json());
    assertTrue(first.ok(), "first request must succeed, got " + first.status());
    Target.Response replay = t.create(key, reordered(p.json()));
    assertEquals(first.status(), replay.status(), "reordered JSON must replay");
    assertEquals(t.id(first), t.id(replay), "reordered JSON must replay the same resource");
  }

  static String reordered(String json) {
    JsonNode node = Target.parse(json);
    ObjectNode out = Target.MAPPER.createObjectNode();
    List<String> names = new ArrayList<>();
    node.fieldNames().forEachRemaining(names::add);
    Collections.reverse(names);
    names.forEach(name -> out.set(name, node.get(name)));
    return "\n  " + out.toPrettyString() + "\n";
  }
}
