package dev.saferetry.conformance;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * What a non-2xx answer shows about the request it answered. A case counts a rejection only when it
 * can show that the server rejected <em>its</em> request, for the reason the case is about — not
 * because of state the case did not create. A request with an empty or missing key meets whatever
 * an earlier run, or another client, left under that key: a server that takes the empty key for a
 * key answers a fresh payload under it as it answers another payload under a used key. So a
 * rejection is compared with the server's own answer to a used key, sampled by the case with two
 * keys of its own; an answer that carries that reason is the server saying "this key is already
 * used", never a rejection of the empty key.
 *
 * <p>Not thread-safe: one per case, on the case's thread.
 */
final class Rejections {
  private final Probe t;
  private Answer usedKey;
  private Map<String, JsonNode> stable;
  private boolean sampled;
  private long sampleEffects;

  Rejections(Probe t) {
    this.t = t;
  }

  /**
   * Whether {@code a} can be about the request at all: an authentication failure, throttling or a
   * timeout answers any request, whatever its key or payload.
   */
  static boolean aboutTheRequest(Answer a) {
    int s = a.status();
    return s != 0 && s != 401 && s != 403 && s != 407 && s != 408 && s != 429;
  }

  /** Ends the case NOT RUN unless {@code a} can be about the request (see above). */
  static void requireAboutTheRequest(Answer a, String what) {
    Check.runOnlyIf(
        aboutTheRequest(a),
        what + " answered " + a.brief() + ", which any request may get: it says nothing about it");
  }

  /** Effects the sample created (two creates), for a global counter's accounting. */
  long sampleEffects() {
    return sampleEffects;
  }

  /**
   * Whether {@code a} carries the server's reason for refusing another payload under a used key:
   * the same status, and every part of the body that two such answers share. Samples that answer
   * the first time (two fresh keys, each used for a create and then for another payload).
   *
   * @throws NotRun when the sample's creates are not accepted
   */
  boolean answersAsAUsedKey(Answer a) {
    sample();
    if (usedKey == null) {
      return false; // another payload under a used key is not refused: no such answer exists
    }
    if (a.status() != usedKey.status()) {
      return false;
    }
    if (stable == null) {
      return a.body().equals(usedKey.body());
    }
    if (stable.isEmpty()) {
      return true; // the two used-key answers share nothing but their status
    }
    if (a.json() == null) {
      return false;
    }
    Map<String, JsonNode> leaves = leaves(a.json());
    return stable.entrySet().stream()
        .allMatch(e -> Objects.equals(leaves.get(e.getKey()), e.getValue()));
  }

  /**
   * Whether the used-key answer tells a used key from other refusals: a request that fails
   * validation (with a fresh key) is not answered the same way. When it does not, no refusal can be
   * told from a refusal caused by a record the case did not create.
   */
  boolean usedKeyAnswerIsSpecific() {
    sample();
    if (usedKey == null) {
      return true;
    }
    String invalid = t.config("invalid.payload");
    if (invalid == null) {
      return !stableIsEmpty();
    }
    Answer v =
        t.create(
            "an invalid payload with a fresh key (how other refusals look)",
            t.newKey(),
            Payload.fill(invalid, t.session.unique("conformance"), ""));
    return v.ok() || !answersAsAUsedKey(v);
  }

  private boolean stableIsEmpty() {
    return stable != null && stable.isEmpty();
  }

  /** The used key's answer, for messages: its status. */
  String usedKeyStatus() {
    sample();
    return usedKey == null ? "none" : Integer.toString(usedKey.status());
  }

  private void sample() {
    if (sampled) {
      return;
    }
    sampled = true;
    Answer first = usedKeyAnswer("1");
    Answer second = usedKeyAnswer("2");
    if (first.ok() || second.ok()) {
      t.note("another payload under a used key is not refused: no used-key answer to compare");
      return;
    }
    Check.runOnlyIf(
        first.status() == second.status(),
        "two refusals of another payload under a used key answered "
            + first.status()
            + " and "
            + second.status()
            + ": no used-key answer to compare this case's refusal with");
    usedKey = first;
    if (first.json() == null || second.json() == null) {
      stable = null; // compared as text: both must be the same bytes
      Check.runOnlyIf(
          first.body().equals(second.body()),
          "two refusals of another payload under a used key differ, and are not JSON: no used-key"
              + " answer to compare this case's refusal with");
      return;
    }
    Map<String, JsonNode> a = leaves(first.json());
    Map<String, JsonNode> b = leaves(second.json());
    stable = new LinkedHashMap<>();
    a.forEach(
        (pointer, value) -> {
          if (value.equals(b.get(pointer))) {
            stable.put(pointer, value);
          }
        });
    t.note("a used key is answered " + first.status() + " with " + stable.keySet());
  }

  /** A create with a fresh key, then another payload under that key. */
  private Answer usedKeyAnswer(String n) {
    Intent i = t.intent();
    Answer created = i.send("used-key sample " + n + ": a create");
    Check.runOnlyIf(
        created.ok(),
        "a create with a fresh key answered "
            + created.brief()
            + ": no used-key answer to compare this case's refusal with");
    sampleEffects++;
    Answer reused =
        i.sendWith("used-key sample " + n + ": another payload, same key", t.newPayload());
    if (reused.ok() && t.id(reused) != null && !t.id(reused).equals(t.id(created))) {
      sampleEffects++; // executed: a global counter sees it too (mismatch.rejected grades that)
    }
    return reused;
  }

  /** Every scalar of a JSON document by its JSON pointer. */
  static Map<String, JsonNode> leaves(JsonNode root) {
    Map<String, JsonNode> out = new LinkedHashMap<>();
    collect("", root, out);
    return out;
  }

  private static void collect(String pointer, JsonNode node, Map<String, JsonNode> out) {
    if (node.isObject()) {
      for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext(); ) {
        Map.Entry<String, JsonNode> e = it.next();
        collect(
            pointer + "/" + e.getKey().replace("~", "~0").replace("/", "~1"), e.getValue(), out);
      }
    } else if (node.isArray()) {
      for (int i = 0; i < node.size(); i++) {
        collect(pointer + "/" + i, node.get(i), out);
      }
    } else {
      out.put(pointer, node);
    }
  }
}
