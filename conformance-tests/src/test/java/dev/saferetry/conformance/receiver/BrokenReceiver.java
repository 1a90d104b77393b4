package dev.saferetry.conformance.receiver;

import java.util.Set;

/**
 * Negative-control webhook receivers: each has one classic flaw, and names exactly the cases of the
 * webhook-receiver contract that must catch it (MUST and SHOULD apart).
 */
public enum BrokenReceiver {
  /** Never checks the signature: anything that parses is applied. */
  NO_SIGNATURE_CHECK(
      Set.of(
          "signature.tampered",
          "signature.wrong-secret",
          "signature.missing",
          "signature.malformed",
          "timestamp.stale"),
      Set.of("signature.other-scheme", "timestamp.future")),
  /** Looks the receipt up outside the transaction, then applies and records it: races. */
  CHECK_THEN_ACT(Set.of("redelivery.concurrent"), Set.of()),
  /**
   * Commits the effect, then records the receipt in a second step: a failure between repeats it.
   */
  RECEIPT_AFTER_EFFECT(Set.of("failure.redelivery-applied-once"), Set.of()),
  /** Applies every new event, whatever its order's timeline already saw. */
  NO_ORDER_AWARENESS(Set.of("order.older-after-newer"), Set.of()),
  /** Deduplicates by order instead of by event: a later event about an order is dropped. */
  DEDUP_BY_ORDER(Set.of("order.newer-after-older"), Set.of()),
  /** Verifies the HMAC but not the signature's time. */
  STALE_ACCEPTED(Set.of("timestamp.stale"), Set.of("timestamp.future")),
  /** Correct, but answers refused deliveries with 500 (the MUST cases hold; a SHOULD does not). */
  REFUSES_WITH_500(Set.of(), Set.of("rejection.status-4xx"));

  private final Set<String> mustFailures;
  private final Set<String> shouldFailures;

  BrokenReceiver(Set<String> mustFailures, Set<String> shouldFailures) {
    this.mustFailures = mustFailures;
    this.shouldFailures = shouldFailures;
  }

  /** The MUST cases this receiver fails, and no other. */
  public Set<String> mustFailures() {
    return mustFailures;
  }

  /** The SHOULD cases this receiver fails, and no other. */
  public Set<String> shouldFailures() {
    return shouldFailures;
  }
}
