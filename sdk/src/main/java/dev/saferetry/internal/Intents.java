package dev.saferetry.internal;

import dev.saferetry.error.IntentExpiredException;
import dev.saferetry.error.IntentMismatchException;
import dev.saferetry.idempotency.BeginResult;
import dev.saferetry.idempotency.IdempotencyKey;
import dev.saferetry.idempotency.IntentRecord;
import dev.saferetry.idempotency.IntentScope;
import dev.saferetry.idempotency.IntentState;
import dev.saferetry.idempotency.KeyStore;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Resolves the key of a call — the caller's, the intent's recorded one, or a fresh one — and
 * records the intent's outcome. The key is fixed here, once, before the first attempt.
 */
final class Intents {
  /** The key a call uses, and the intent record it belongs to (null when no intent id). */
  record Claim(IdempotencyKey key, IntentRecord record, boolean priorPending) {
    static final Claim NONE = new Claim(null, null, false);
  }

  private final KeyStore store;
  private final String tenant;
  private final Duration retention;
  private final Clock clock;
  private final ConcurrentHashMap<String, IntentScope> scopes = new ConcurrentHashMap<>();

  Intents(KeyStore store, String tenant, Duration retention, Clock clock) {
    this.store = store;
    this.tenant = tenant;
    this.retention = retention;
    this.clock = clock;
  }

  KeyStore store() {
    return store;
  }

  IntentScope scope(String operation) {
    // One scope per operation for the client's life: validated once, not on every call.
    return scopes.computeIfAbsent(operation, op -> new IntentScope(tenant, op));
  }

  Claim claim(String operation, String intentId, IdempotencyKey callerKey, String fingerprint) {
    IdempotencyKey fresh = callerKey != null ? callerKey : IdempotencyKey.random();
    if (intentId == null) {
      return new Claim(fresh, null, false);
    }
    IntentRecord candidate =
        IntentRecord.pending(
            scope(operation), intentId, fresh, fingerprint, clock.instant(), retention);
    BeginResult begun = store.begin(candidate);
    IntentRecord record = begun.record();
    if (begun.created()) {
      return new Claim(fresh, record, false);
    }
    if (callerKey != null && !record.key().equals(callerKey)) {
      throw new IllegalArgumentException(
          "intent " + intentId + " is already recorded with another idempotency key");
    }
    if (!record.fingerprint().equals(fingerprint)) {
      throw new IntentMismatchException(record.key(), intentId);
    }
    boolean pending = record.state() == IntentState.PENDING;
    if (pending && record.isExpired(clock.instant())) {
      throw new IntentExpiredException(record.key(), intentId);
    }
    return new Claim(record.key(), record, pending);
  }

  void succeeded(Claim claim, int status, String resourceId) {
    if (claim.record() != null) {
      store.complete(claim.record().complete(IntentState.SUCCEEDED, status, resourceId));
    }
  }

  void failed(Claim claim, int status) {
    if (claim.record() != null) {
      store.complete(claim.record().complete(IntentState.FAILED, status, null));
    }
  }
}
