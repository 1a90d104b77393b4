package dev.saferetry.examples.support.stripe;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Stripe's idempotency rules for POST requests, as its documentation states them: keys are scoped
 * to the API key; the first request with a key claims it; a request with the same key and the same
 * identity (method, path, {@code Stripe-Account}, {@code Stripe-Version} and parameters, compared
 * as parsed, so order and escaping do not matter) gets the first answer again, marked {@code
 * Idempotent-Replayed: true}; another identity gets 400 {@code idempotency_error}; a request that
 * arrives while the first is still running gets 409. Only answers of requests whose endpoint began
 * executing are kept; a rejected request releases its key. Keys are kept 24 hours.
 */
final class IdempotencyLayer {
  static final Duration RETENTION = Duration.ofHours(24);

  /** What makes two requests with one key the same request. */
  record Identity(
      String method, String path, String account, String version, Map<String, Object> params) {}

  /** A kept answer. */
  record Saved(int status, byte[] body) {}

  /** What to do with a request that carries a key. */
  enum Kind {
    NEW,
    REPLAY,
    MISMATCH,
    BUSY
  }

  /** The decision; {@code saved} for a replay, {@code claim} for a new request. */
  record Decision(Kind kind, Saved saved, Claim claim) {}

  /** A key claimed by a running request; completed or released exactly once. */
  static final class Claim {
    private final String scope;
    private final Identity identity;
    private final Instant created;
    private volatile Saved saved;

    private Claim(String scope, Identity identity, Instant created) {
      this.scope = scope;
      this.identity = identity;
      this.created = created;
    }
  }

  private final ConcurrentHashMap<String, Claim> claims = new ConcurrentHashMap<>();
  private final Clock clock;

  IdempotencyLayer(Clock clock) {
    this.clock = Objects.requireNonNull(clock, "clock");
  }

  /** Claims the key for a new request, or says why not. */
  Decision begin(String apiKey, String key, Identity identity) {
    String scope = apiKey + '\u0000' + key;
    Instant now = clock.instant();
    Decision[] out = new Decision[1];
    claims.compute(
        scope,
        (s, existing) -> {
          if (existing == null || existing.created.plus(RETENTION).isBefore(now)) {
            Claim fresh = new Claim(s, identity, now);
            out[0] = new Decision(Kind.NEW, null, fresh);
            return fresh;
          }
          if (!existing.identity.equals(identity)) {
            out[0] = new Decision(Kind.MISMATCH, null, null);
          } else if (existing.saved == null) {
            out[0] = new Decision(Kind.BUSY, null, null);
          } else {
            out[0] = new Decision(Kind.REPLAY, existing.saved, null);
          }
          return existing;
        });
    return out[0];
  }

  /** Keeps the answer of an executed request; releases the key of one rejected before work. */
  void complete(Claim claim, Reply reply, byte[] body) {
    if (reply.executed()) {
      claim.saved = new Saved(reply.status(), body);
    } else {
      claims.remove(claim.scope, claim);
    }
  }

  /** Releases the key of a request that failed unexpectedly. */
  void release(Claim claim) {
    claims.remove(claim.scope, claim);
  }
}
