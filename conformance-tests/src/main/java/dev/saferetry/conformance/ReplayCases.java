package dev.saferetry.conformance;

import static dev.saferetry.conformance.Check.require;
import static dev.saferetry.conformance.Check.runOnlyIf;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;

/** Replay: the stored outcome comes back, and only once is anything done. */
final class ReplayCases {
  private ReplayCases() {}

  static List<CaseSpec> cases() {
    return List.of(
        CaseSpec.must(
            "replay.same-payload",
            "Same key + same payload replays the same status, body, content type and resource id",
            ReplayCases::samePayloadReplays),
        CaseSpec.must(
            "keys.distinct-resources",
            "Different keys with the same payload create distinct resources",
            ReplayCases::distinctKeysCreateDistinctResources),
        CaseSpec.must(
            "replay.after-change",
            "A replay after the resource changed (confirmed by a read) returns the original outcome",
            ReplayCases::replayAfterChangeReturnsOriginal),
        CaseSpec.should(
            "replay.error-outcome",
            "A 4xx outcome is replayed with its status, body and content type",
            ReplayCases::errorOutcomeIsReplayed),
        CaseSpec.should(
            "replay.headers",
            "A replay keeps meaningful headers such as Location",
            ReplayCases::replayKeepsLocation),
        CaseSpec.may(
            "replay.marker",
            "A replay carries the replay marker header and the original response does not",
            ReplayCases::replayIsMarked),
        CaseSpec.should(
            "payload.json-normalised",
            "Semantically identical JSON (other key order, whitespace) is the same payload",
            ReplayCases::reorderedJsonIsTheSamePayload));
  }

  static void samePayloadReplays(Probe t) {
    Intent i = t.intent();
    Answer first = i.created("first");
    Answer replay = i.send("replay");
    requireSameOutcome(t, first, replay, "the replay");
    t.effects().expect(1, "one key", i.payload);
  }

  /** Requires status, body, content type and id of {@code replay} to equal {@code first}'s. */
  static void requireSameOutcome(Probe t, Answer first, Answer replay, String what) {
    require(
        replay.status() == first.status(),
        what + " answered " + replay.status() + ", the original " + first.status());
    require(
        Objects.equals(t.id(first), t.id(replay)),
        what + " carries id " + t.id(replay) + ", the original " + t.id(first));
    require(
        replay.sameOutcomeAs(first), what + " differs from the original: " + diff(first, replay));
  }

  static String diff(Answer first, Answer replay) {
    if (!first.mediaType().equals(replay.mediaType())) {
      return "content type '" + replay.mediaType() + "' instead of '" + first.mediaType() + "'";
    }
    return "another body (see the exchanges)";
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
    Answer replay = i.send("replay");
    require(
        replay.json() == null || !replay.json().equals(read.json()),
        "the replay returns the resource as it is now, not the original outcome");
    requireSameOutcome(t, first, replay, "the replay after the change");
  }

  static void errorOutcomeIsReplayed(Probe t) {
    String path = Check.declared(t, "error.path", "an operation that ends in a 4xx");
    String body = Payload.fill(t.config("error.payload"), t.session.unique("conformance"), "");
    String key = t.newKey();
    Answer first = t.send("first", "POST", path, body, key, t.tenant1());
    runOnlyIf(
        first.status() >= 400 && first.status() < 500,
        "the error operation answered " + first.status() + ", not a 4xx");
    Answer retry = t.send("retry", "POST", path, body, key, t.tenant1());
    String marker = t.config("replay.header");
    if (marker != null) {
      t.note(marker + " on the retry: " + retry.header(marker));
    }
    require(
        retry.sameOutcomeAs(first),
        "the retry of a 4xx outcome differs: status "
            + retry.status()
            + " vs "
            + first.status()
            + ", "
            + diff(first, retry));
  }

  static void replayKeepsLocation(Probe t) {
    Intent i = t.intent();
    Answer first = i.created("first");
    runOnlyIf(first.header("Location") != null, "the original response has no Location header");
    Answer replay = i.send("replay");
    require(
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
    Answer replay = i.send("replay");
    t.note(header + ": original=" + first.header(header) + " replay=" + replay.header(header));
    require(replay.header(header) != null, "the replay has no " + header + " header");
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
    require(
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
