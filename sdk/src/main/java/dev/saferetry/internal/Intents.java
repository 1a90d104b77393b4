package dev.saferetry.internal;

import dev.saferetry.RequestOptions;
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
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BinaryOperator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Resolves the key of a call — the caller's, the intent's recorded one, or a fresh one — and
 * records the intent's outcome. The key is fixed here, once, before the first attempt. Also the
 * recovery operations of a client, all within the client's tenant.
 *
 * <p>Intent time never runs backwards: it is the latest time the clock has shown this client, so a
 * clock stepped back cannot make an expired pending intent look fresh and re-send its stale key.
 *
 * <p>Thread-safe.
 */
public final class Intents {
  private static final Logger LOG = LoggerFactory.getLogger("dev.saferetry");
  private static final BinaryOperator<Instant> LATER = (a, b) -> a.isAfter(b) ? a : b;

  /** Longer than this counts as a clock stepped back, worth one warning. */
  private static final Duration CLOCK_STEP = Duration.ofSeconds(1);

  /** The key a call uses, and the intent record it belongs to (null when no intent id). */
  record Claim(IdempotencyKey key, IntentRecord record, boolean priorPending) {
    static final Claim NONE = new Claim(null, null, false);
  }

  private final KeyStore store;
  private final String tenant;
  private final Duration retention;
  private final Clock clock;
  private final ConcurrentHashMap<String, IntentScope> scopes = new ConcurrentHashMap<>();
  private final AtomicReference<Instant> latest = new AtomicReference<>(Instant.MIN);
  private final AtomicBoolean warnedClockStep = new AtomicBoolean();

  Intents(KeyStore store, String tenant, Duration retention, Clock clock) {
    this.store = store;
    this.tenant = tenant;
    this.retention = retention;
    this.clock = clock;
  }

  IntentScope scope(String operation) {
    // One scope per operation for the client's life: validated once, not on every call.
    return scopes.computeIfAbsent(operation, op -> new IntentScope(tenant, op));
  }

  /** The latest time the clock has shown: never earlier than any intent time used before. */
  Instant now() {
    Instant shown = clock.instant();
    Instant now = latest.accumulateAndGet(shown, LATER);
    if (now.isAfter(shown.plus(CLOCK_STEP)) && warnedClockStep.compareAndSet(false, true)) {
      LOG.warn("The clock went back from {} to {}; intents keep using the later time", now, shown);
    }
    return now;
  }

  Claim claim(String operation, RequestOptions options, String fingerprint) {
    IdempotencyKey callerKey = options.idempotencyKey();
    IdempotencyKey fresh = callerKey != null ? callerKey : IdempotencyKey.random();
    String intentId = options.intentId();
    if (intentId == null) {
      return new Claim(fresh, null, false);
    }
    if (options.redrive() != null) {
      checkOwn(options.redrive(), operation);
    }
    IntentRecord candidate =
        IntentRecord.pending(scope(operation), intentId, fresh, fingerprint, now(), retention);
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
    if (pending && record.isExpired(now())) {
      throw new IntentExpiredException(record.key(), intentId);
    }
    return new Claim(record.key(), record, pending);
  }

  /**
   * Refuses a listed intent that this client would record under another scope: a re-drive through
   * another tenant's client, or as another operation, would mint a second key for it.
   */
  private void checkOwn(IntentRecord listed, String operation) {
    checkTenant(listed);
    if (!listed.scope().operation().equals(operation)) {
      throw new IllegalArgumentException(
          "intent "
              + listed.intentId()
              + " was recorded for operation '"
              + listed.scope().operation()
              + "'; it cannot be re-driven as '"
              + operation
              + "'");
    }
  }

  private void checkTenant(IntentRecord listed) {
    if (!listed.scope().tenant().equals(tenant)) {
      throw new IllegalArgumentException(
          "intent "
              + listed.intentId()
              + " belongs to tenant '"
              + listed.scope().tenant()
              + "', but this client works for tenant '"
              + tenant
              + "'; use a client built with that tenant");
    }
  }

  /** This client's tenant's pending intents, oldest first. */
  public List<IntentRecord> pending() {
    return store.pending().stream().filter(r -> r.scope().tenant().equals(tenant)).toList();
  }

  /**
   * Abandons a listed intent if the store still holds it with the listed key: an intent recorded
   * again since (another key) is not the one its caller reconciled.
   */
  public boolean abandon(IntentRecord listed) {
    checkTenant(listed);
    Optional<IntentRecord> stored = store.find(listed.scope(), listed.intentId());
    if (stored.isEmpty() || !stored.get().key().equals(listed.key())) {
      return false;
    }
    return store.abandon(listed.scope(), listed.intentId());
  }

  /** Abandons this tenant's intent of an operation. */
  public boolean abandon(String operation, String intentId) {
    IntentRecord.checkIntentId(intentId);
    return store.abandon(scope(operation), intentId);
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
