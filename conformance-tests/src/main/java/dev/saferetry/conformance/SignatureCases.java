package dev.saferetry.conformance;

import static dev.saferetry.conformance.Check.require;
import static dev.saferetry.conformance.Check.runOnlyIf;
import static dev.saferetry.conformance.Deliveries.now;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Deliveries the receiver must refuse: forged, tampered, unsigned, malformed and stale. A refusal
 * only counts when the genuine delivery of the same event is then accepted and applied once, which
 * also shows that the refused delivery left no receipt behind.
 */
final class SignatureCases {
  private SignatureCases() {}

  /**
   * A delivery that must not verify.
   *
   * @param label what is wrong with it
   * @param order the order its body is about (whose effects are counted)
   * @param body the body sent
   * @param headers the signature headers sent
   */
  record Forged(String label, String order, String body, Map<String, String> headers) {
    Forged(String label, Delivery e, Map<String, String> headers) {
      this(label, e.orderId(), e.body(), headers);
    }
  }

  static List<CaseSpec> cases() {
    return List.of(
        CaseSpec.must(
            "signature.tampered",
            "A delivery changed after signing (body, or a signed id header) is refused and applies"
                + " nothing",
            t -> refusal(t, "a tampered delivery", SignatureCases::tampered)),
        CaseSpec.must(
            "signature.wrong-secret",
            "A delivery signed with another secret is refused and applies nothing",
            t -> refusal(t, "a delivery signed with another secret", SignatureCases::wrongSecret)),
        CaseSpec.must(
            "signature.missing",
            "A delivery without a signature is refused and applies nothing",
            t -> refusal(t, "an unsigned delivery", SignatureCases::unsigned)),
        CaseSpec.must(
            "signature.malformed",
            "Deliveries with malformed signature headers are refused and apply nothing",
            t -> refusal(t, "a malformed signature", SignatureCases::malformed)),
        CaseSpec.should(
            "signature.other-scheme",
            "A delivery signed only under another scheme version (Stripe v0, Standard Webhooks"
                + " v2) is refused: no downgrade",
            t -> refusal(t, "a signature of another scheme", SignatureCases::otherScheme)),
        CaseSpec.must(
            "timestamp.stale",
            "A delivery whose signature time is older than the tolerance is refused and applies"
                + " nothing",
            t -> refusal(t, "a stale signature", (d, e) -> List.of(shifted(d, e, -1)))),
        CaseSpec.should(
            "timestamp.future",
            "A delivery whose signature time lies beyond the tolerance in the future is refused",
            t -> refusal(t, "a future signature", (d, e) -> List.of(shifted(d, e, 1)))),
        CaseSpec.should(
            "rejection.status-4xx",
            "Refused deliveries are answered 4xx, not 5xx",
            SignatureCases::refusalsAre4xx));
  }

  /** Makes the forged deliveries of one event. */
  @FunctionalInterface
  interface Forgery {
    List<Forged> of(Deliveries d, Delivery e);
  }

  static void refusal(Probe t, String what, Forgery forgery) {
    Deliveries d = new Deliveries(t);
    Delivery e = d.fresh();
    List<Forged> forged = forgery.of(d, e);
    for (Forged f : forged) {
      Answer a = d.send(f.label(), f.body(), f.headers());
      require(!a.ok(), what + " (" + f.label() + ") was acknowledged with " + a.status());
    }
    if (t.effects().counted()) {
      Payload[] markers = markers(e, forged);
      long n = t.effects().count("the refused deliveries", markers);
      require(n == 0, what + " was refused, yet " + n + " effects were counted");
    } else {
      t.note("effects not counted (no counter declared)");
    }
    Answer genuine = d.send("the genuine delivery of the same event", e);
    runOnlyIf(
        genuine.ok(),
        "the correctly signed delivery of the same event was refused too ("
            + genuine.brief()
            + "), so the refusal proves nothing");
    if (t.effects().counted()) {
      long n = t.effects().count("the genuine delivery", e.payload());
      require(
          n == 1,
          "after "
              + what
              + " was refused, the genuine delivery of the same event applied "
              + n
              + " times, not once: a refused delivery must leave no receipt behind");
    }
  }

  /** The event's own order and any other order a tampered body names. */
  private static Payload[] markers(Delivery e, List<Forged> forged) {
    Map<String, Payload> markers = new LinkedHashMap<>();
    markers.put(e.orderId(), e.payload());
    forged.forEach(f -> markers.putIfAbsent(f.order(), new Payload(f.order(), f.body())));
    return markers.values().toArray(Payload[]::new);
  }

  static List<Forged> tampered(Deliveries d, Delivery e) {
    String otherOrder = d.newOrder();
    Delivery changed = d.aboutOtherOrder(e, otherOrder);
    Map<String, String> signature = d.signed(e, now());
    List<Forged> forged = new ArrayList<>();
    forged.add(
        new Forged(
            "body changed after signing (now about " + otherOrder + ")",
            otherOrder,
            changed.body(),
            signature));
    if (d.scheme().idInHeader()) {
      Map<String, String> otherId = new LinkedHashMap<>(signature);
      otherId.put("webhook-id", e.eventId() + "-replayed");
      forged.add(new Forged("webhook-id changed after signing", e, otherId));
    }
    return forged;
  }

  static List<Forged> wrongSecret(Deliveries d, Delivery e) {
    SignatureScheme s = d.scheme();
    byte[] other = s.key(s.randomSecret());
    return List.of(
        new Forged("signed with another secret", e, s.sign(other, e.eventId(), now(), e.body())));
  }

  static List<Forged> unsigned(Deliveries d, Delivery e) {
    return List.of(new Forged("no signature", e, d.scheme().unsigned(e.eventId(), now())));
  }

  static List<Forged> malformed(Deliveries d, Delivery e) {
    List<Forged> forged = new ArrayList<>();
    d.scheme()
        .malformed(d.key(), e.eventId(), now(), e.body())
        .forEach((label, headers) -> forged.add(new Forged(label, e, headers)));
    return forged;
  }

  static List<Forged> otherScheme(Deliveries d, Delivery e) {
    return List.of(
        new Forged(
            "only another scheme's signature",
            e,
            d.scheme().otherScheme(d.key(), e.eventId(), now(), e.body())));
  }

  /**
   * Signed well outside the tolerance: by the tolerance plus at least a minute (or plus the
   * tolerance again), so clocks a little apart cannot make the case wrong.
   */
  static Forged shifted(Deliveries d, Delivery e, int direction) {
    long offset = d.tolerance() + Math.max(60, d.tolerance());
    String label = "signed " + offset + " s " + (direction < 0 ? "ago" : "in the future");
    return new Forged(label, e, d.signed(e, now() + direction * offset));
  }

  static void refusalsAre4xx(Probe t) {
    Deliveries d = new Deliveries(t);
    Delivery e = d.fresh();
    List<Forged> forged = new ArrayList<>(tampered(d, e));
    forged.addAll(wrongSecret(d, e));
    forged.addAll(unsigned(d, e));
    forged.add(malformed(d, e).get(0));
    forged.add(shifted(d, e, -1));
    List<String> not4xx = new ArrayList<>();
    int refused = 0;
    for (Forged f : forged) {
      Answer a = d.send(f.label(), f.body(), f.headers());
      if (!a.ok()) {
        refused++;
        if (a.status() < 400 || a.status() > 499) {
          not4xx.add(f.label() + "→" + a.status());
        }
      }
    }
    runOnlyIf(refused > 0, "no delivery was refused, so there is no refusal status to grade");
    require(not4xx.isEmpty(), "refusals answered other than 4xx: " + String.join(", ", not4xx));
  }
}
