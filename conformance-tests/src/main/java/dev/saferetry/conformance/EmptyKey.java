package dev.saferetry.conformance;

import static dev.saferetry.conformance.Check.require;
import static dev.saferetry.conformance.Check.runOnlyIf;

import java.util.Objects;

/**
 * {@code key.empty-not-shared}: an empty {@code Idempotency-Key} header — a client whose key
 * variable was never set — must be rejected or treated as no key. A server that takes it for a key
 * makes it one key shared by every such request: the next client's request is refused for ever
 * (another payload under a used key) or, worse, answered with another client's or tenant's outcome
 * while its own operation never happens. Run whether keys are required or optional. Stateless; one
 * case at a time.
 *
 * <p>The first empty-key request carries the same payload on every run ({@link
 * Probe#stablePayload}), so that the record an earlier run of this case left under the empty key
 * answers it as it answered that run — replayed — and the run repeats its evidence: a second run in
 * a row judges the server as the first did, even when the server answers every refusal alike and no
 * refusal could be told from one caused by that record. The second request carries a fresh payload.
 */
final class EmptyKey {
  private EmptyKey() {}

  static void emptyKeyIsNeverOneSharedKey(Probe t) {
    Payload first = t.stablePayload("empty-key");
    t.effects().baseline(first);
    Answer a = t.create("an empty key", "", first.json());
    if (!a.ok()) {
      requireRejectedForItsKey(t, a, first);
      return;
    }
    Payload second = t.newPayload();
    Answer b = t.create("an empty key, another payload (another client)", "", second.json());
    require(
        !(b.ok() && Objects.equals(t.id(a), t.id(b))),
        "a second request with an empty key and another payload received the first one's resource "
            + t.id(a)
            + ": the empty key is one key shared by every request");
    refusedForItsKey(b, "a second request with an empty key and another payload");
    require(
        b.ok(),
        "a second request with an empty key and another payload was rejected with "
            + b.status()
            + " after a first one was accepted: the empty key is one key shared by every request,"
            + " and this request can never execute");
    long tenant2 = 0;
    if (!t.tenant2().isEmpty()) {
      Payload third = t.newPayload();
      Answer c =
          t.send(
              "tenant 2, an empty key",
              "POST",
              t.config("create.path"),
              third.json(),
              "",
              t.tenant2());
      require(
          !(c.ok() && (Objects.equals(t.id(a), t.id(c)) || Objects.equals(t.id(b), t.id(c)))),
          "tenant 2's request with an empty key received tenant 1's resource "
              + t.id(c)
              + ": the empty key is one key shared across tenants");
      refusedForItsKey(c, "tenant 2's request with an empty key");
      require(
          c.ok(),
          "tenant 2's request with an empty key was rejected with "
              + c.status()
              + " after tenant 1's were accepted: the empty key is shared across tenants");
      tenant2 = 1;
    }
    t.effects().expect(2, tenant2, "two requests of tenant 1 with an empty key", first, second);
  }

  /**
   * NOT RUN when {@code a} was refused for a reason that is not its key — throttled, not
   * authorised, a server error — so that only a refusal the key explains counts as sharing.
   */
  private static void refusedForItsKey(Answer a, String what) {
    int s = a.status();
    runOnlyIf(
        a.ok() || s >= 400 && s < 500 && s != 401 && s != 403 && s != 429,
        what + " answered " + a.brief() + ", which says nothing about its key");
  }

  /**
   * A rejection is a pass when the case can show it rejected its own request for its key: it is
   * about the request (not throttling or authentication), it is not the server's answer to a used
   * key (which a record left under the empty key by an earlier run or another client would get),
   * the same payload is then accepted with a real key, and — with a counter — the rejected request
   * created nothing. A 5xx counts as a rejection only when the counter shows it created nothing.
   */
  private static void requireRejectedForItsKey(Probe t, Answer a, Payload payload) {
    Rejections.requireAboutTheRequest(a, "a request with an empty key");
    boolean rejected = a.status() >= 400 && a.status() < 500;
    if (!rejected && a.status() >= 500 && t.effects().counted()) {
      rejected = t.effects().count("what a 5xx to an empty key created", payload) == 0;
    }
    runOnlyIf(
        rejected,
        "a request with an empty key answered " + a.brief() + ", neither accepted nor rejected");
    Rejections rejections = new Rejections(t);
    if (a.status() < 500) {
      requireNotAnsweredAsAUsedKey(
          t, rejections, a, "a request with an empty key and this case's payload", "the empty key");
    }
    t.note("the empty key was rejected");
    Answer fresh = t.create("same payload, a real key", t.newKey(), payload.json());
    runOnlyIf(
        fresh.ok(),
        "the same payload is rejected with a real key too ("
            + fresh.status()
            + "), so the rejection proves nothing");
    t.effects()
        .expect(
            1,
            rejections.sampleEffects(),
            "the request refused for its empty key and the same payload with a real key",
            payload);
  }

  /**
   * Fails, or ends NOT RUN, when {@code a} — a refusal of a request whose key ({@code key}: the
   * empty key, no key) was never used by this case — carries the server's reason for another
   * payload under a used key: that key already holds a record the case did not create, so it is one
   * key shared by every such request. NOT RUN when the server refuses every request alike (a
   * request that fails validation gets the same answer): then no refusal can be told from one
   * caused by such a record, and the case does not pass on it either.
   */
  static void requireNotAnsweredAsAUsedKey(
      Probe t, Rejections rejections, Answer a, String what, String key) {
    int inProgress = t.cfg.getInt("status.in-progress", 409);
    runOnlyIf(
        a.status() != inProgress || inProgress == t.cfg.getInt("status.invalid-key", 400),
        what
            + " answered the in-progress status ("
            + inProgress
            + "): "
            + key
            + " is held by a request this case did not send, so the refusal is not about it");
    if (!rejections.answersAsAUsedKey(a)) {
      return;
    }
    runOnlyIf(
        rejections.usedKeyAnswerIsSpecific(),
        what
            + " was refused with "
            + a.status()
            + " exactly as another payload under a used key is, and as a request that fails"
            + " validation is: the case cannot tell a refusal of "
            + key
            + " from a record left under it by an earlier run or another client");
    require(
        false,
        what
            + " was answered "
            + a.status()
            + " with the server's reason for another payload under a used key, not a refusal of"
            + " its key: "
            + key
            + " already holds a record this case did not create (left by an earlier run or another"
            + " client), so it is one key shared by every such request");
  }
}
