package dev.saferetry.conformance;

import static dev.saferetry.conformance.Check.require;
import static dev.saferetry.conformance.Check.runOnlyIf;

import java.util.List;
import java.util.Locale;
import java.util.Objects;

/** Payload comparison and key scope: a key means one request of one operation of one tenant. */
final class ScopeCases {
  private ScopeCases() {}

  static List<CaseSpec> cases() {
    return List.of(
        CaseSpec.must(
            "mismatch.rejected",
            "Same key + another payload is rejected, creates nothing, and the payload is accepted"
                + " with a fresh key",
            ScopeCases::otherPayloadIsRejected),
        CaseSpec.should(
            "mismatch.status",
            "The mismatch rejection uses the profile's status (IETF 422; Stripe 400 with an"
                + " idempotency error type)",
            ScopeCases::mismatchUsesConfiguredStatus),
        CaseSpec.must(
            "scope.per-tenant",
            "Keys are scoped per tenant: another tenant's same key + payload creates its own"
                + " resource",
            ScopeCases::keysArePerTenant),
        CaseSpec.should(
            "scope.per-operation",
            "The same key on another operation behaves as the profile says: executed as that"
                + " operation, rejected (Stripe), or either (IETF: the resource owner decides)",
            ScopeCases::otherOperationAsTheProfileSays),
        CaseSpec.must(
            "scope.cross-endpoint",
            "The same key on another endpoint never replays the first operation's outcome",
            ScopeCases::otherEndpointNeverReplaysTheWrongOperation),
        CaseSpec.must(
                "scope.query-string",
                "The same key with an added query string never creates a second effect",
                ScopeCases::queryStringNeverCreatesADuplicate)
            .after(ReplayCases.BASIC),
        CaseSpec.must(
                "scope.path-variants",
                "The same key on a path variant (trailing slash, letter case) never creates a second"
                    + " effect",
                ScopeCases::pathVariantsNeverCreateADuplicate)
            .after(ReplayCases.BASIC),
        CaseSpec.may(
            "validation.not-stored",
            "A request failing validation is stored or not as the profile says (not stored: the"
                + " key can then carry a corrected request)",
            ScopeCases::validationFailureStorageAsTheProfileSays));
  }

  static void otherPayloadIsRejected(Probe t) {
    Intent i = t.intent();
    i.created("first");
    Payload other = t.newPayload();
    Answer reuse = i.sendWith("same key, other payload", other);
    require(!reuse.ok(), "another payload under a used key was accepted with " + reuse.status());
    Rejections.requireAboutTheRequest(reuse, "another payload under a used key");
    Answer fresh = t.create("other payload, fresh key", t.newKey(), other.json());
    runOnlyIf(
        fresh.ok(),
        "the other payload is rejected even with a fresh key ("
            + fresh.status()
            + "), so the rejection proves nothing");
    t.effects().require(2, "the first request and the fresh-key request", i.payload, other);
  }

  static void mismatchUsesConfiguredStatus(Probe t) {
    Intent i = t.intent();
    i.created("first");
    Answer reuse = i.sendWith("same key, other payload", t.newPayload());
    int expected = t.cfg.getInt("status.mismatch", 422);
    require(
        reuse.status() == expected,
        "the mismatch answered " + reuse.status() + ", the profile expects " + expected);
    String pointer = t.config("mismatch.error-pointer");
    if (pointer != null) {
      String type = reuse.json() == null ? null : reuse.json().at(pointer).asText(null);
      require(
          Objects.equals(t.config("mismatch.error-value"), type),
          "the error at "
              + pointer
              + " is "
              + type
              + ", the profile expects "
              + t.config("mismatch.error-value"));
    }
  }

  static void keysArePerTenant(Probe t) {
    runOnlyIf(!t.tenant2().isEmpty(), "needs a second tenant (tenant2.headers.*)");
    Intent i = t.intent();
    Answer a = i.created("tenant 1");
    Answer b =
        t.send(
            "tenant 2, same key",
            "POST",
            t.config("create.path"),
            i.payload.json(),
            i.key,
            t.tenant2());
    require(
        !(b.ok() && Objects.equals(t.id(a), t.id(b))),
        "tenant 2 received tenant 1's resource " + t.id(a) + ": keys are shared across tenants");
    require(
        b.ok(),
        "tenant 2's request collided with tenant 1's key and was rejected with " + b.status());
  }

  static void otherOperationAsTheProfileSays(Probe t) {
    Answer[] pair = createThenSecond(t);
    String expected = t.cfg.all().getOrDefault("scope.other-endpoint", "either").strip();
    boolean executed = pair[1].ok() && !Objects.equals(pair[0].json(), pair[1].json());
    boolean rejected = pair[1].status() >= 400 && pair[1].status() < 500;
    if (rejected) {
      Rejections.requireAboutTheRequest(pair[1], "the same key on another operation");
    }
    t.note(
        "other operation "
            + (executed ? "executed" : rejected ? "rejected" : "answered " + pair[1].status()));
    switch (expected) {
      case "execute" ->
          require(
              executed,
              "the same key on another operation was not executed as that operation ("
                  + pair[1].status()
                  + "); the profile expects per-operation keys");
      case "reject" ->
          require(
              rejected,
              "the same key on another operation was not rejected ("
                  + pair[1].status()
                  + "); the profile expects keys unique across endpoints");
      default ->
          require(
              executed || rejected,
              "the same key on another operation answered " + pair[1].status());
    }
  }

  static void otherEndpointNeverReplaysTheWrongOperation(Probe t) {
    Answer[] pair = createThenSecond(t);
    require(
        !Objects.equals(pair[0].json(), pair[1].json()),
        "the other endpoint replayed the first operation's outcome");
    require(
        !(pair[1].ok() && Objects.equals(t.id(pair[0]), t.id(pair[1]))),
        "the other endpoint returned the first operation's resource id " + t.id(pair[0]));
  }

  private static Answer[] createThenSecond(Probe t) {
    String path =
        Check.declared(t, "second.path", "another operation (second.path, second.payload)");
    Intent i = t.intent();
    Answer first = i.created("first");
    Payload second =
        new Payload(
            i.payload.marker() + "-second",
            Payload.fill(t.config("second.payload"), i.payload.marker(), t.id(first)));
    Answer other =
        t.send("same key, other endpoint", "POST", path, second.json(), i.key, t.tenant1());
    t.effects().expect(1, other.ok() ? 1 : 0, "the first operation", i.payload);
    return new Answer[] {first, other};
  }

  static void queryStringNeverCreatesADuplicate(Probe t) {
    Intent i = t.intent();
    Answer first = i.created("first");
    String path = t.config("create.path");
    String probe = path + (path.contains("?") ? "&" : "?") + "conformance_probe=1";
    Answer second =
        t.send("same key, query string", "POST", probe, i.payload.json(), i.key, t.tenant1());
    requireNoSecondResource(t, first, second, "the query string");
    t.effects().require(1, "one key, with and without a query string", i.payload);
  }

  static void pathVariantsNeverCreateADuplicate(Probe t) {
    Intent i = t.intent();
    Answer first = i.created("first");
    String path = t.config("create.path");
    String bare = path.contains("?") ? path.substring(0, path.indexOf('?')) : path;
    String query = path.substring(bare.length());
    String slash = bare.endsWith("/") ? bare.substring(0, bare.length() - 1) : bare + "/";
    String upper = bare.toUpperCase(Locale.ROOT);
    for (String variant : List.of(slash + query, upper + query)) {
      Answer a =
          t.send(
              "same key, path " + variant, "POST", variant, i.payload.json(), i.key, t.tenant1());
      requireNoSecondResource(t, first, a, "the path variant " + variant);
    }
    t.effects().require(1, "one key on path variants", i.payload);
  }

  private static void requireNoSecondResource(Probe t, Answer first, Answer second, String what) {
    require(
        !(second.ok() && !Objects.equals(t.id(first), t.id(second))),
        what + " created a second resource " + t.id(second) + " under the same key");
  }

  static void validationFailureStorageAsTheProfileSays(Probe t) {
    String invalid =
        Check.declared(t, "invalid.payload", "a payload the target rejects as invalid");
    Intent i = t.intent();
    Answer bad = t.create("invalid payload", i.key, Payload.fill(invalid, i.payload.marker(), ""));
    runOnlyIf(
        bad.status() >= 400 && bad.status() < 500,
        "the invalid payload answered " + bad.status() + ", not a 4xx");
    Answer good = i.send("same key, valid payload");
    Rejections.requireAboutTheRequest(good, "the valid payload under the key of the invalid one");
    boolean stored = !good.ok();
    t.note("validation failure " + (stored ? "stored" : "not stored"));
    String expected = t.cfg.all().getOrDefault("validation-failure", "either").strip();
    require(
        !expected.equals("not-stored") || !stored,
        "after a validation failure the key rejects a corrected request ("
            + good.status()
            + "); the profile expects validation failures not to be stored");
    require(
        !expected.equals("stored") || stored,
        "after a validation failure the key accepted another request; the profile expects the failure to be stored");
  }
}
