package dev.saferetry.conformance;

import static dev.saferetry.conformance.Check.require;
import static dev.saferetry.conformance.Check.runOnlyIf;
import static dev.saferetry.conformance.Deliveries.now;

import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/** Deliveries and redeliveries of genuine events: each event is applied exactly once. */
final class DeliveryCases {
  private static final int BURSTS = 3;
  private static final int TIMED_DELIVERIES = 5;

  private DeliveryCases() {}

  static List<CaseSpec> cases() {
    return List.of(
        CaseSpec.must(
            "delivery.applied-once",
            "A correctly signed delivery is acknowledged (2xx) and applied exactly once",
            DeliveryCases::deliveryIsAppliedOnce),
        CaseSpec.must(
            "redelivery.applied-once",
            "The same event delivered again (re-signed, as providers do) is acknowledged (2xx) and"
                + " applies nothing more",
            DeliveryCases::redeliveryAppliesNothing),
        CaseSpec.must(
            "redelivery.concurrent",
            "N concurrent deliveries of one event (default 16) apply it once",
            DeliveryCases::concurrentDeliveriesApplyOnce),
        CaseSpec.must(
            "failure.redelivery-applied-once",
            "After a delivery failed inside the receiver (hook.fail-next), the redelivery is"
                + " acknowledged and the event is applied exactly once",
            DeliveryCases::redeliveryAfterAFailureAppliesOnce));
  }

  /** The last case: it is timed after every other case warmed the receiver up. */
  static CaseSpec answersFast() {
    return CaseSpec.should(
        "delivery.answers-fast",
        "Every delivery is answered within answer-within-millis (default 2000)",
        DeliveryCases::deliveriesAreAnsweredFast);
  }

  static void deliveryIsAppliedOnce(Probe t) {
    Deliveries d = new Deliveries(t);
    Delivery e = d.fresh();
    Answer a = d.send("delivery", e);
    require(a.ok(), "a correctly signed delivery was answered " + a.brief() + ", not 2xx");
    t.effects().require(1, "one delivery", e.payload());
  }

  static void redeliveryAppliesNothing(Probe t) {
    Deliveries d = new Deliveries(t);
    Delivery e = d.fresh();
    long now = Deliveries.now();
    Answer first = d.sendAt("first delivery", e, now - 2);
    runOnlyIf(first.ok(), "the first delivery was not acknowledged (" + first.brief() + ")");
    for (int i = 1; i <= 2; i++) {
      Answer again = d.sendAt("redelivery " + i, e, now - 2 + i);
      require(
          again.ok(),
          "redelivery "
              + i
              + " of an applied event was answered "
              + again.brief()
              + ": the sender keeps redelivering what is not acknowledged");
    }
    t.effects().require(1, "one event delivered three times", e.payload());
  }

  static void concurrentDeliveriesApplyOnce(Probe t) {
    Deliveries d = new Deliveries(t);
    int n = t.cfg.getInt("concurrency", 16);
    for (int attempt = 1; attempt <= BURSTS; attempt++) {
      t.effects().begin();
      Delivery e = d.fresh();
      List<Answer> burst =
          Concurrent.burst(t, n, d.request(e.body(), d.signed(e, Deliveries.now())));
      if (Concurrent.overlapped(burst)) {
        runOnlyIf(burst.stream().anyMatch(Answer::ok), "no delivery of the burst was acknowledged");
        t.effects().require(1, "one event delivered " + n + " times at once", e.payload());
        Answer after = d.send("redelivery after the race", e);
        require(after.ok(), "a redelivery after the race was answered " + after.brief());
        return;
      }
      t.note("burst " + attempt + ": the deliveries did not overlap");
    }
    throw new NotRun(
        "race not exercised: in "
            + BURSTS
            + " bursts of "
            + n
            + " the deliveries never overlapped");
  }

  static void redeliveryAfterAFailureAppliesOnce(Probe t) {
    Deliveries d = new Deliveries(t);
    Delivery e = d.fresh();
    failNext(t, e);
    // A receiver that fails may also drop the connection: any end but a 2xx is a failure.
    Answer failed =
        t.attempt("delivery while a failure is armed", d.request(e.body(), d.signed(e, now())));
    if (failed.ok()) {
      throw new HookFailure("hook.fail-next did not make the next delivery fail (it answered 2xx)");
    }
    Answer again = d.send("redelivery after the failure", e);
    require(again.ok(), "the redelivery after a failed delivery was answered " + again.brief());
    t.effects().require(1, "an event whose first delivery failed, then redelivered", e.payload());
  }

  /** Arms {@code hook.fail-next} for delivery {@code e}; NOT RUN when it is not declared. */
  static void failNext(Probe t, Delivery e) {
    String spec = Check.declared(t, "hook.fail-next", "a hook that makes the next delivery fail");
    t.hooks()
        .send(
            HookTemplate.parse("hook.fail-next", spec),
            Map.of("event_id", e.eventId(), "order_id", e.orderId()));
  }

  static void deliveriesAreAnsweredFast(Probe t) {
    Deliveries d = new Deliveries(t);
    long bound = t.cfg.getLong("answer-within-millis", 2000);
    long slowest = 0;
    for (int i = 1; i <= TIMED_DELIVERIES; i++) {
      Answer a = d.send("timed delivery " + i, d.fresh());
      runOnlyIf(a.ok(), "timed delivery " + i + " was not acknowledged (" + a.brief() + ")");
      slowest = Math.max(slowest, TimeUnit.NANOSECONDS.toMillis(a.endNanos() - a.startNanos()));
    }
    t.note("slowest of " + TIMED_DELIVERIES + ": " + slowest + " ms");
    require(
        slowest <= bound,
        "a delivery took "
            + slowest
            + " ms to answer, more than answer-within-millis="
            + bound
            + ": record the receipt, queue the work and answer at once");
  }
}
