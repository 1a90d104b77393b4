package dev.saferetry.testing.provider;

import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The provider's idempotency keys, the way payment APIs document them: the first request with a key
 * claims it; the same key with the same request (fingerprint) gets the stored answer again; with
 * another request it is refused; while the first is still running, the second gets "in progress".
 * Only answers of requests that were carried out are stored; a refused request releases its key. A
 * key counts for {@code retention} from its first use. Thread-safe.
 */
final class Keys {
  enum Kind {
    NEW,
    REPLAY,
    MISMATCH,
    BUSY
  }

  /** What to do with a keyed request: {@code stored} for a replay, {@code claim} for a new one. */
  record Decision(Kind kind, Answer stored, Claim claim) {}

  /** A key claimed by a running request; completed or released once. */
  static final class Claim {
    private final String scope;
    private final String fingerprint;
    private final Instant created;
    private volatile Answer saved;

    private Claim(String scope, String fingerprint, Instant created) {
      this.scope = scope;
      this.fingerprint = fingerprint;
      this.created = created;
    }
  }

  private final Map<String, Claim> claims = new ConcurrentHashMap<>();

  Decision begin(String scope, String fingerprint, Instant now, Duration retention) {
    Decision[] out = new Decision[1];
    claims.compute(
        scope,
        (s, existing) -> {
          if (existing == null || !existing.created.plus(retention).isAfter(now)) {
            Claim fresh = new Claim(s, fingerprint, now);
            out[0] = new Decision(Kind.NEW, null, fresh);
            return fresh;
          }
          if (!existing.fingerprint.equals(fingerprint)) {
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

  /** Stores the answer of a request that was carried out; releases the key of one that was not. */
  void complete(Claim claim, Answer answer) {
    if (answer.executed()) {
      claim.saved = answer;
    } else {
      release(claim);
    }
  }

  void release(Claim claim) {
    claims.remove(claim.scope, claim);
  }

  void clear() {
    claims.clear();
  }
}
