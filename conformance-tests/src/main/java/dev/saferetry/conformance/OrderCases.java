package dev.saferetry.conformance;

import static dev.saferetry.conformance.Check.require;
import static dev.saferetry.conformance.Check.runOnlyIf;

import java.util.List;

/**
 * Order awareness: events about one order arrive in any order, and only what is newer than what the
 * order already saw is applied (by the events' {@code created} time).
 */
final class OrderCases {
  /** How much older the older event of a pair is. */
  private static final long APART_SECONDS = 60;

  private OrderCases() {}

  static List<CaseSpec> cases() {
    return List.of(
        CaseSpec.must(
            "order.older-after-newer",
            "An older event about an order, arriving after a newer one, is acknowledged (2xx) and"
                + " not applied",
            OrderCases::olderAfterNewerIsNotApplied),
        CaseSpec.must(
            "order.newer-after-older",
            "A newer event about an order, arriving after an older one, is applied",
            OrderCases::newerAfterOlderIsApplied));
  }

  /** Two events about one new order, {older, newer}, created {@link #APART_SECONDS} apart. */
  private static Delivery[] pair(Deliveries d) {
    String order = d.newOrder();
    long created = Deliveries.now();
    return new Delivery[] {
      d.event(order, d.type(), created - APART_SECONDS), d.event(order, d.newerType(), created)
    };
  }

  static void olderAfterNewerIsNotApplied(Probe t) {
    Deliveries d = new Deliveries(t);
    Delivery[] pair = pair(d);
    Delivery older = pair[0];
    Delivery newer = pair[1];
    Answer a = d.send("newer event", newer);
    runOnlyIf(a.ok(), "the newer event was not acknowledged (" + a.brief() + ")");
    long applied = t.effects().count("that the newer event was applied", newer.payload());
    runOnlyIf(
        applied == 1,
        "the newer event ("
            + newer.type()
            + ") was not applied on its own (counted "
            + applied
            + "), so the case proves nothing: check event.newer-type");
    Answer b = d.send("older event", older);
    require(
        b.ok(),
        "an older event arriving late was answered "
            + b.brief()
            + ": it must be acknowledged, or the sender keeps redelivering it");
    long after = t.effects().count("the older event", older.payload());
    require(
        after == 1,
        "an older event arriving after a newer one was applied ("
            + after
            + " effects on the order, not 1): the order went back in time");
  }

  static void newerAfterOlderIsApplied(Probe t) {
    Deliveries d = new Deliveries(t);
    Delivery[] pair = pair(d);
    Delivery older = pair[0];
    Delivery newer = pair[1];
    Answer a = d.send("older event", older);
    runOnlyIf(a.ok(), "the older event was not acknowledged (" + a.brief() + ")");
    runOnlyIf(
        t.effects().count("that the older event was applied", older.payload()) == 1,
        "the older event was not applied on its own, so the case proves nothing");
    Answer b = d.send("newer event", newer);
    require(b.ok(), "a newer event was answered " + b.brief() + ", not 2xx");
    long after = t.effects().count("the newer event", newer.payload());
    require(
        after == 2,
        "a newer event about an order that saw an older one was not applied ("
            + after
            + " effects on the order, not 2)");
  }
}
