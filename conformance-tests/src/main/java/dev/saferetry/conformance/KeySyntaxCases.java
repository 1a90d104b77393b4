package dev.saferetry.conformance;

import static dev.saferetry.conformance.Check.require;
import static dev.saferetry.conformance.Check.runOnlyIf;

import java.util.List;
import java.util.Objects;

/** The key itself: required, bounded, and accepted in the draft's Structured Field syntax. */
final class KeySyntaxCases {
  /** The longest key length a profile may declare: header values beyond it are not keys. */
  static final int MAX_DECLARED_LENGTH = 8192;

  private KeySyntaxCases() {}

  static List<CaseSpec> cases() {
    return List.of(
        CaseSpec.should(
            "key.missing",
            "A missing key on an endpoint that requires one is rejected (IETF: 400) and creates"
                + " nothing",
            KeySyntaxCases::missingKeyIsRejected),
        CaseSpec.should(
            "key.empty",
            "An empty key is rejected (400) and creates nothing (not run when keys are optional)",
            KeySyntaxCases::emptyKeyIsRejected),
        CaseSpec.must(
            "key.empty-not-shared",
            "An empty key is rejected or treated as no key, never as one key shared by every"
                + " client and tenant",
            EmptyKey::emptyKeyIsNeverOneSharedKey),
        CaseSpec.should(
            "key.too-long",
            "A key of the declared maximum length (key.max-length) is accepted and a longer one is"
                + " rejected (400) without creating anything (not run when no limit is declared)",
            KeySyntaxCases::overLongKeyIsRejected),
        CaseSpec.may(
                "key.structured-field",
                "The key is accepted as a quoted Structured Field string, and \"abc\" and abc"
                    + " denote the same key (not run when the profile's keys are opaque)",
                KeySyntaxCases::quotedAndBareKeysAreTheSame)
            .after(ReplayCases.BASIC));
  }

  static void missingKeyIsRejected(Probe t) {
    runOnlyIf(
        t.cfg.getBoolean("require-key", true),
        "the target does not require keys (require-key=false)");
    rejected(t, null, "status.missing-key", "no key", true);
  }

  static void emptyKeyIsRejected(Probe t) {
    runOnlyIf(
        t.cfg.getBoolean("require-key", true),
        "keys are optional (require-key=false): an empty key may be treated as absent");
    rejected(t, "", "status.invalid-key", "an empty key", true);
  }

  static void overLongKeyIsRejected(Probe t) {
    runOnlyIf(
        t.config("key.max-length") != null,
        "the server's key length limit is not declared (key.max-length): the IETF draft sets"
            + " none, and a server accepting longer keys than another is not wrong");
    int max = t.cfg.getInt("key.max-length", 0);
    runOnlyIf(
        max >= 1 && max <= MAX_DECLARED_LENGTH,
        "key.max-length must be between 1 and " + MAX_DECLARED_LENGTH + ", got " + max);
    Payload atMax = t.newPayload();
    Answer accepted = t.create("key of " + max + " characters", longKey(t, max), atMax.json());
    require(
        accepted.ok(), "a key of " + max + " characters was rejected with " + accepted.status());
    rejected(
        t,
        longKey(t, max + 1),
        "status.invalid-key",
        "a key of " + (max + 1) + " characters",
        false);
  }

  /** A key unique to this run, padded to exactly {@code length} characters. */
  static String longKey(Probe t, int length) {
    String unique = t.newKey() + "-";
    return unique.length() >= length
        ? unique.substring(0, length)
        : unique + "k".repeat(length - unique.length());
  }

  static void quotedAndBareKeysAreTheSame(Probe t) {
    String format = t.cfg.all().getOrDefault("key.format", "structured-field").strip();
    runOnlyIf(
        !format.equals("opaque"),
        "keys are opaque strings under this profile (key.format=opaque): \"abc\" and abc are two"
            + " keys");
    String key = t.newKey();
    Payload p = t.newPayload();
    Answer quoted = t.create("quoted key", "\"" + key + "\"", p.json());
    require(quoted.ok(), "a quoted key was rejected with " + quoted.status());
    Answer bare = t.retry("bare key", "POST", t.config("create.path"), p.json(), key, t.tenant1());
    String what = "\"" + key + "\" and " + key;
    require(
        !(bare.ok() && !Objects.equals(t.id(quoted), t.id(bare))),
        what + " were taken for two keys: the same payload was executed twice");
    Check.requireReplay(
        bare.ok() && Objects.equals(t.id(quoted), t.id(bare)),
        what + " were not treated as one key: the bare key answered " + bare.brief());
  }

  /**
   * The request is rejected with the profile's status, for its key, and the payload works with a
   * real key. {@code neverUsedByThisCase}: the key (none, the empty key) is one this case cannot
   * have used first, so a record an earlier run or another client left under it must not pass for a
   * rejection (see {@link Rejections}).
   */
  private static void rejected(
      Probe t, String key, String statusKey, String what, boolean neverUsedByThisCase) {
    t.effects().begin();
    Payload p = t.newPayload();
    Answer response = t.create(what, key, p.json());
    Rejections.requireAboutTheRequest(response, "a request with " + what);
    Rejections rejections = new Rejections(t);
    if (neverUsedByThisCase && !response.ok()) {
      EmptyKey.requireNotAnsweredAsAUsedKey(
          t, rejections, response, "a request with " + what, key == null ? "no key" : what);
    }
    int expected = t.cfg.getInt(statusKey, 400);
    require(
        response.status() == expected,
        "a request with "
            + what
            + " answered "
            + response.status()
            + ", the profile expects "
            + expected);
    Answer fresh = t.create("same payload, valid key", t.newKey(), p.json());
    runOnlyIf(
        fresh.ok(),
        "the same payload is rejected with a valid key too ("
            + fresh.status()
            + "), so the rejection proves nothing");
    t.effects().require(1, rejections.sampleEffects(), "the rejected request and the valid one", p);
  }
}
