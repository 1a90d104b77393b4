package dev.saferetry.conformance;

import static dev.saferetry.conformance.Check.require;
import static dev.saferetry.conformance.Check.requireReplay;
import static dev.saferetry.conformance.Check.runOnlyIf;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;

/** Replay: the stored outcome comes back, and only once is anything done. */
final class ReplayCases {
  private ReplayCases() {}

  /** The case the other replay cases build on. */
  static final String BASIC = "replay.basic";

  static List<CaseSpec> cases() {
    return List.of(
        CaseSpec.must(
            BASIC,
            "Same key + same payload is not executed again: the retry succeeds with the original"
                + " resource id",
            ReplayCases::retryIsNotExecutedAgain),
        CaseSpec.must(
                "replay.same-payload",
                "Same key + same payload replays the original status, body and resource id",
                ReplayCases::samePayloadReplays)
            .after(BASIC),
        CaseSpec.should(
                "replay.content-type",
                "A replay carries the original's media type (Content-Type)",
                ReplayCases::replayKeepsTheMediaType)
            .after(BASIC),
        CaseSpec.must(
            "keys.distinct-resources",
            "Different keys with the same payload create distinct resources",
            ReplayCases::distinctKeysCreateDistinctResources),
        CaseSpec.must(
                "replay.after-change",
                "A replay after the resource changed (confirmed by a read) returns the original"
                    + " outcome",
                ReplayCases::replayAfterChangeReturnsOriginal)
            .after(BASIC),
        CaseSpec.should(
                "replay.error-outcome",
                "A 4xx outcome is replayed with its status and body, not executed again",
                ErrorReplay::errorOutcomeIsReplayed)
            .after(BASIC),
        CaseSpec.should(
                "replay.headers",
                "A replay keeps meaningful headers such as Location",
                ReplayCases::replayKeepsLocation)
            .after(BASIC),
        CaseSpec.may(
                "replay.marker",
                "A replay carries the replay marker header and the original response does not",
                ReplayCases::replayIsMarked)
            .after(BASIC),
        CaseSpec.should(
                "payload.json-normalised",
                "Semantically identical JSON (other key order, whitespace) is the same payload",
                ReplayCases::reorderedJsonIsTheSamePayload)
            .after(BASIC));
  }

  static void retryIsNotExecutedAgain(Probe t) {
    Intent i = t.intent();
    Answer first = i.created("first");
    Answer retry = i.replay("retry");
    require(
        !(retry.ok() && t.id(retry) != null && !t.id(retry).equals(t.id(first))),
        "the retry with the same key and payload was executed again: it created "
            + t.id(retry)
            + " besides "
            + t.id(first));
    require(
        retry.ok(),
        "the retry with the same key and payload answered "
            + retry.brief()
            + " instead of replaying the original "
            + first.status());
    require(
        Objects.equals(t.id(first), t.id(retry)),
        "the retry carries id " + t.id(retry) + ", the original " + t.id(first));
    if (retry.status() != first.status()) {
      t.note("the replay's status " + retry.status() + " is graded by replay.same-payload");
    }
    t.effects().expect(1, "one key", i.payload);
  }

  static void samePayloadReplays(Probe t) {
    Intent i = t.intent();
    Answer first = i.created("first");
    Answer replay = i.replay("replay");
    requireSameOutcome(t, first, replay, "the replay");
    t.effects().expect(1, "one key", i.payload);
  }

  /**
   * Requires status, body and id of {@code replay} to equal {@code first}'s. A replay that created
   * another resource is a second execution, a failure whatever else failed; the other differences
   * need a working replay to mean anything ({@link Check#requireReplay}).
   */
  static void requireSameOutcome(Probe t, Answer first, Answer replay, String what) {
    requireNotExecutedAgain(t, first, replay, what);
    requireReplay(
        replay.status() == first.status(),
        what + " answered " + replay.brief() + ", the original " + first.status());
    requireReplay(
        Objects.equals(t.id(first), t.id(replay)),
        what + " carries id " + t.id(replay) + ", the original " + t.id(first));
    requireReplay(
        replay.sameBodyAs(first), what + " differs from the original: " + diff(first, replay));
  }

  /**
   * Fails when {@code retry} succeeded with another resource than {@code first}'s: executed again.
   */
  static void requireNotExecutedAgain(Probe t, Answer first, Answer retry, String what) {
    require(
        !(retry.ok() && t.id(retry) != null && !t.id(retry).equals(t.id(first))),
        what
            + " was executed again: it created "
            + t.id(retry)
            + " besides the original "
            + t.id(first));
  }

  /** Says how two bodies differ, without quoting them (the exchanges carry them, redacted). */
  static String diff(Answer first, Answer replay) {
    if (first.json() instanceof ObjectNode a && replay.json() instanceof ObjectNode b) {
      Set<String> fields = new TreeSet<>();
      a.fieldNames().forEachRemaining(fields::add);
      b.fieldNames().forEachRemaining(fields::add);
      fields.removeIf(f -> Objects.equals(a.get(f), b.get(f)));
      return "another body: the JSON field(s) " + String.join(", ", fields) + " differ";
    }
    return first.json() != null && replay.json() == null
        ? "another body: it is not the original's JSON"
        : "another body (see the exchanges)";
  }

  static void replayKeepsTheMediaType(Probe t) {
    Intent i = t.intent();
    Answer first = i.created("first");
    Answer replay = i.replay("replay");
    t.note("Content-Type: original=" + first.mediaType() + " replay=" + replay.mediaType());
    runOnlyIf(
        replay.status() == first.status(),
        "the replay answered " + replay.brief() + ", the original " + first.status());
    requireReplay(
        replay.mediaType().equals(first.mediaType()),
        "the replay's Content-Type is '"
            + replay.mediaType()
            + "', the original's '"
            + first.mediaType()
            + "'"
            + (replay.body().equals(first.body()) ? " (the body is byte-identical)" : ""));
  }

  static void distinctKeysCreateDistinctResources(Probe t) {
    Payload p = t.newPayload();
    Answer a = t.create("key A", t.newKey(), p.json());
    Answer b = t.create("key B", t.newKey(), p.json());
    runOnlyIf(a.ok() && t.id(a) != null, "the first request was not accepted with an id");
    require(b.ok(), "the same payload under a second key was rejected with " + b.status());
    require(!Objects.equals(t.id(a), t.id(b)), "two keys gave one resource " + t.id(a));
    t.effects().expect(2, "two keys", p);
  }

  static void replayAfterChangeReturnsOriginal(Probe t) {
    String changePath = Check.declared(t, "change.path", "an operation that changes the resource");
    String retrieve =
        Check.declared(t, "retrieve.path", "a read of the resource to confirm the change");
    Intent i = t.intent();
    Answer first = i.created("first");
    String id = t.id(first);
    Answer change =
        t.send(
            "change",
            "POST",
            changePath,
            Payload.fill(t.config("change.payload"), i.payload.marker(), id),
            t.newKey(),
            t.tenant1());
    runOnlyIf(change.ok(), "the change operation was not accepted (" + change.status() + ")");
    Answer read =
        t.send(
            "read", "GET", Payload.fill(retrieve, i.payload.marker(), id), null, null, t.tenant1());
    runOnlyIf(
        read.ok() && read.json() != null && !read.json().equals(first.json()),
        "a read after the change shows no change, so a replay could not tell the original apart");
    Answer replay = i.replay("replay");
    requireNotExecutedAgain(t, first, replay, "the replay after the change");
    requireReplay(
        replay.json() == null || !replay.json().equals(read.json()),
        "the replay returns the resource as it is now, not the original outcome");
    requireSameOutcome(t, first, replay, "the replay after the change");
  }

  static void replayKeepsLocation(Probe t) {
    Intent i = t.intent();
    Answer first = i.created("first");
    runOnlyIf(first.header("Location") != null, "the original response has no Location header");
    Answer replay = i.replay("replay");
    requireNotExecutedAgain(t, first, replay, "the replay");
    requireReplay(
        Objects.equals(first.header("Location"), replay.header("Location")),
        "the replay's Location is "
            + replay.header("Location")
            + ", the original "
            + first.header("Location"));
  }

  static void replayIsMarked(Probe t) {
    String header = Check.declared(t, "replay.header", "a replay marker header");
    Intent i = t.intent();
    Answer first = i.created("first");
    Answer replay = i.replay("replay");
    t.note(header + ": original=" + first.header(header) + " replay=" + replay.header(header));
    requireNotExecutedAgain(t, first, replay, "the replay");
    requireReplay(replay.header(header) != null, "the replay has no " + header + " header");
    require(first.header(header) == null, "the original response already carries " + header);
  }

  static void reorderedJsonIsTheSamePayload(Probe t) {
    runOnlyIf(
        Answer.parse(t.config("create.payload").replace("${marker}", "m")) instanceof ObjectNode,
        "the create payload is not a JSON object");
    Intent i = t.intent();
    Answer first = i.created("first");
    Answer replay =
        i.sendWith("reordered", new Payload(i.payload.marker(), reordered(i.payload.json())));
    requireNotExecutedAgain(t, first, replay, "the same JSON with other key order and whitespace");
    requireReplay(
        replay.status() == first.status() && Objects.equals(t.id(first), t.id(replay)),
        "the same JSON with other key order and whitespace answered "
            + replay.status()
            + " instead of replaying");
  }

  static String reordered(String json) {
    JsonNode node = Answer.parse(json);
    ObjectNode out = Answer.MAPPER.createObjectNode();
    List<String> names = new ArrayList<>();
    node.fieldNames().forEachRemaining(names::add);
    Collections.reverse(names);
    names.forEach(name -> out.set(name, node.get(name)));
    return "\n  " + out.toPrettyString() + "\n";
  }
}
