package dev.saferetry.conformance;

import java.io.UncheckedIOException;

/**
 * Everything checked once before the webhook-receiver cases run: that a target is given, that the
 * secret, scheme, tolerance and payload template are well formed, that a correctly signed delivery
 * is acknowledged, that the declared effect counter counts exactly that delivery (and nothing for
 * an order never sent), and that a declared {@code hook.fail-next} makes the next delivery fail
 * once. Any problem is a {@link ConfigurationError}.
 */
final class WebhookPreflight {
  private WebhookPreflight() {}

  static void run(Probe t) {
    require(
        t.session.baseUrl != null,
        "the webhook-receiver contract grades a receiver you run: give its base URL as the"
            + " target (--target http://host:port)");
    Deliveries d;
    try {
      d = new Deliveries(t);
    } catch (IllegalArgumentException e) {
      throw new ConfigurationError(e.getMessage());
    }
    try {
      begin(t);
      Delivery first = d.fresh();
      accepted(t, d, first);
      if (t.effects().counted()) {
        counts(t, d, first);
      }
      if (t.config("hook.fail-next") != null) {
        failsOnce(t, d);
      }
    } catch (HookFailure | UncheckedIOException | NotRun e) {
      throw new ConfigurationError(e.getMessage());
    }
  }

  /** Reads a global counter's baseline; the first thing that talks to the receiver. */
  private static void begin(Probe t) {
    try {
      t.effects().begin();
    } catch (HookFailure e) {
      throw new ConfigurationError(
          "cannot read the effect counter: "
              + e.getMessage()
              + " (is the receiver running at "
              + t.session.baseUrl
              + "?)");
    }
  }

  private static void accepted(Probe t, Deliveries d, Delivery first) {
    Answer a = t.attempt("first delivery", d.request(first.body(), d.signed(first, now())));
    require(
        !a.lost(),
        "the receiver does not answer (" + a.error() + "): is it running at " + t.session.baseUrl);
    require(
        a.ok(),
        "a correctly signed delivery was answered "
            + a.status()
            + ", not 2xx: check webhook.path, webhook.secret, signature.scheme, payload.template,"
            + " event.type and that the receiver's clock is within signature.tolerance-seconds of"
            + " this machine's");
  }

  private static void counts(Probe t, Deliveries d, Delivery first) {
    String counter = t.session.counter.property();
    long n = t.effects().count("that the counter counts", first.payload());
    require(n == 1, counter + " counted " + n + " effects for the first delivery, not 1");
    t.effects().begin();
    Delivery unsent = d.fresh();
    long idle = t.effects().count("that the counter counts nothing else", unsent.payload());
    require(idle == 0, counter + " counted " + idle + " effects for an order never sent, not 0");
  }

  private static void failsOnce(Probe t, Deliveries d) {
    Delivery e = d.fresh();
    DeliveryCases.failNext(t, e);
    Answer failed =
        t.attempt("delivery after hook.fail-next", d.request(e.body(), d.signed(e, now())));
    require(!failed.ok(), "hook.fail-next did not make the next delivery fail (it answered 2xx)");
    Answer again = d.send("redelivery after hook.fail-next", e);
    require(
        again.ok(),
        "after hook.fail-next, the redelivery was answered "
            + again.brief()
            + ": the hook must make one delivery fail, not more");
  }

  private static long now() {
    return Deliveries.now();
  }

  private static void require(boolean condition, String message) {
    if (!condition) {
      throw new ConfigurationError(message);
    }
  }
}
