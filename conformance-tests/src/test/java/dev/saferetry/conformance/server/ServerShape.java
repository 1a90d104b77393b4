package dev.saferetry.conformance.server;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.Map;
import java.util.function.UnaryOperator;

/**
 * Correct servers shaped differently from the reference, each with the profile properties that
 * declare its hooks. The suite must pass every MUST case against each and run them all.
 */
public enum ServerShape {
  /** Stores a 5xx as the key's outcome and replays it (as Stripe documents). */
  STORED_5XX_REPLAYED(b -> b.flow(StoredFailureFlow::new), Map.of()),
  /** Ends a hung request itself at its lock timeout (closing its connection), no takeover. */
  HUNG_KEY_RELEASED_AT_TIMEOUT(
      b -> b.flow(HungReleaseFlow::new).hooks(ReshapedHooks::reapingOnClock), Map.of()),
  /** Stripe's rule: a key is unique per tenant across endpoints; reuse elsewhere is rejected. */
  KEYS_UNIQUE_ACROSS_ENDPOINTS(
      b ->
          b.flow(
              ctx ->
                  new IdempotencyFlow(ctx) {
                    @Override
                    IdempotencyRequest scope(IdempotencyRequest r) {
                      return new IdempotencyRequest(
                          r.tenant(), "*", r.path(), r.key(), r.requestHash());
                    }
                  }),
      Map.of()),
  /** Keys optional, and an empty key header treated as no key (each such request executes). */
  EMPTY_KEY_IS_NO_KEY(
      b -> b.requireKey(false).emptyKey(ServerSettings.EmptyKey.NO_KEY),
      Map.of("require-key", "false")),
  /** Offers only a global side-effect counter. */
  GLOBAL_COUNTER_ONLY(
      b -> b.hooks(ReshapedHooks::globalCounterOnly),
      Map.of(
          "effects.count", "",
          "effects.total", "GET /_test/effects/total",
          "effects.total.pointer", "/count/all")),
  /** Fault, clock and restart hooks of another shape; effects counted by the API's list. */
  OTHER_HOOK_SHAPE(
      b -> b.hooks(ReshapedHooks::otherShape),
      Map.ofEntries(
          Map.entry("effects.count", ""),
          Map.entry("effects.list", "GET /v1/charges?description=${marker}"),
          Map.entry("effects.list.items", "/data"),
          Map.entry("effects.list.match", "/description"),
          Map.entry("hook.fault.delay", "PUT /_test/chaos/pause?ms=${millis}"),
          Map.entry("hook.fault.fail-before-commit", "PUT /_test/chaos/fail-early?code=${status}"),
          Map.entry(
              "hook.fault.fail-after-commit", "PUT /_test/chaos/commit-then-fail?code=${status}"),
          Map.entry("hook.fault.hang", "PUT /_test/chaos/stall"),
          Map.entry("hook.fault.unhandled-exception", "PUT /_test/chaos/explode"),
          Map.entry("hook.fault.reset", "POST /_test/chaos/clear"),
          Map.entry("hook.clock", "PATCH /_test/time {\"plus\":${seconds}}"),
          Map.entry("hook.restart", "PUT /_test/reboot")));

  private final UnaryOperator<ReferenceServer.Builder> shape;
  private final Map<String, String> profile;

  ServerShape(UnaryOperator<ReferenceServer.Builder> shape, Map<String, String> profile) {
    this.shape = shape;
    this.profile = profile;
  }

  /** A correct reference server that accepts keys of any length (no 255 limit). */
  public static ReferenceServer unlimitedKeys() {
    return ReferenceServer.builder().maxKeyLength(1000).build();
  }

  /** A (not yet started) server of this shape. */
  public ReferenceServer build() {
    return shape.apply(ReferenceServer.builder()).build();
  }

  /** Properties declaring this shape's hooks, on top of {@code ietf,reference}. */
  public Map<String, String> profile() {
    return profile;
  }

  /** Stripe-like: a 5xx, before or after commit, is stored as the outcome and replayed. */
  static final class StoredFailureFlow extends IdempotencyFlow {
    StoredFailureFlow(FlowContext ctx) {
      super(ctx);
    }

    @Override
    Outcome stored(Outcome outcome, Fault fault) {
      return is(fault, Fault.Kind.FAIL_AFTER_COMMIT) ? failure(fault.status()) : outcome;
    }

    @Override
    Reply failedBeforeCommit(IdempotencyRequest r, String owner, int status) throws SQLException {
      try (Tx tx = ctx.db().begin()) {
        Connection c = tx.connection();
        ctx.keys().complete(c, r, owner, failure(status));
        tx.commit();
      }
      return injectedFailure(status);
    }

    private static Outcome failure(int status) {
      return new Outcome(status, injectedFailure(status).body(), null, null);
    }
  }
}
