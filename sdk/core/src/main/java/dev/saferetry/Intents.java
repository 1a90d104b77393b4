package dev.saferetry;

import dev.saferetry.error.Reason;
import dev.saferetry.error.SafeRetryException;
import dev.saferetry.idempotency.BeginResult;
import dev.saferetry.idempotency.IdempotencyKey;
import dev.saferetry.idempotency.IntentClaim;
import dev.saferetry.idempotency.IntentRecord;
import dev.saferetry.idempotency.IntentRefusedException;
import dev.saferetry.idempotency.IntentScope;
import dev.saferetry.idempotency.IntentState;
import dev.saferetry.idempotency.KeyStore;
import dev.saferetry.internal.codec.Percent;
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
 * clock stepped back cannot make an expired pending intent look fresh and re-send its stale key. A
 * pending intent found in the store is judged at the store's {@link KeyStore#expiryTime}, which
 * keeps that floor across restarts or, for a store shared by instances, is the clock they share (a
 * database's), whichever way this client's clock is off.
 *
 * <p>Thread-safe.
 */
final class Intents {
  private static final Logger LOG = LoggerFactory.getLogger("dev.saferetry");

  /** The longest resource id recorded with a completion, in characters; longer ones are absent. */
  static final int MAX_RESOURCE_ID = 1024;

  private static final BinaryOperator<Instant> LATER = (a, b) -> a.isAfter(b) ? a : b;

  // Longer than this counts as a clock stepped back, worth one warning.
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

  // The time a pending intent's expiry is judged at: the store's (KeyStore#expiryTime) — this
  // client's now() raised to the store's floor (the latest time it recorded, kept across
  // restarts), which later intent times then never precede; or, for a store shared by instances,
  // the clock they share (a database's), earlier or later than this client's.
  private Instant expiryTime() {
    Instant now = now();
    Instant judged = store.expiryTime(now);
    if (judged == null) {
      return now;
    }
    if (judged.isBefore(now)) {
      return judged; // the store's own clock: this client's clock runs ahead of it
    }
    return latest.accumulateAndGet(judged, LATER);
  }

  /**
   * Fixes the key of a call: the candidate (the caller's key or a freshly minted one) when the call
   * names no intent or records a new one, the recorded key otherwise.
   *
   * @param maxWait the longest the store may wait to record the intent: the call's deadline
   * @throws SafeRetryException FAILED when the intent is recorded with another request or another
   *     key, UNKNOWN when it is pending and expired or the store refuses it (abandoned, held for
   *     another sender or a person); nothing was sent
   * @throws dev.saferetry.idempotency.KeyStoreException if the store cannot record the intent, or
   *     its wait ran past {@code maxWait}
   */
  Claim claim(
      String operation,
      RequestOptions options,
      IdempotencyKey candidate,
      String fingerprint,
      Duration maxWait) {
    String intentId = options.intentId();
    if (intentId == null) {
      return new Claim(candidate, null, false);
    }
    IntentRecord proposed =
        IntentRecord.pending(scope(operation), intentId, candidate, fingerprint, now(), retention);
    BeginResult begun;
    try {
      begun = store.begin(proposed, maxWait);
    } catch (IntentRefusedException e) {
      throw Endings.unknown(
          e.abandoned() ? Reason.INTENT_ABANDONED : Reason.INTENT_HELD,
          e.getMessage() + "; nothing was sent by this call",
          null,
          new Endings.Trail(options.idempotencyKey(), intentId, List.of()),
          e);
    }
    IntentRecord record = begun.record();
    if (begun.created()) {
      return new Claim(candidate, record, false);
    }
    Endings.Trail trail = new Endings.Trail(record.key(), intentId, List.of());
    if (options.idempotencyKey() != null && !record.key().equals(options.idempotencyKey())) {
      throw Endings.failed(
          Reason.INTENT_KEY_CONFLICT,
          "intent is already recorded with another idempotency key than the one given; not"
              + " sent",
          trail,
          null);
    }
    if (!record.fingerprint().equals(fingerprint)) {
      throw Endings.failed(
          Reason.INTENT_MISMATCH,
          "intent is recorded with a different request fingerprint; not sent",
          trail,
          null);
    }
    boolean pending = record.state() == IntentState.PENDING;
    if (pending && record.isExpired(expiryTime())) {
      throw Endings.unknown(
          Reason.INTENT_EXPIRED,
          "pending intent is older than the key retention and was not re-sent with its stale"
              + " key; reconcile its outcome with the provider, then abandon it",
          null,
          trail,
          null);
    }
    return new Claim(record.key(), record, pending);
  }

  /**
   * Fixes the key of a call that sends an intent recorded earlier and held by the caller: the
   * recorded key, unless the intent is past its key's retention at the store's time.
   *
   * @throws SafeRetryException UNKNOWN when it is expired; nothing was sent
   */
  Claim claimHeld(IntentRecord record) {
    if (record.state() == IntentState.PENDING && record.isExpired(expiryTime())) {
      throw Endings.unknown(
          Reason.INTENT_EXPIRED,
          "pending intent is older than the key retention and was not re-sent with its stale"
              + " key; reconcile its outcome with the provider, then abandon it",
          null,
          new Endings.Trail(record.key(), record.intentId(), List.of()),
          null);
    }
    return new Claim(record.key(), record, record.state() == IntentState.PENDING);
  }

  /**
   * Hands a definitive answer to the holder of the intent, to record. As {@link #complete}, this
   * never turns the answer into an error.
   */
  void completeHeld(
      IntentClaim held,
      Claim claim,
      IntentState state,
      int status,
      String resourceId,
      String operation) {
    String id = storable(resourceId) ? resourceId : null;
    try {
      held.complete(claim.record().complete(state, status, id));
    } catch (RuntimeException e) {
      LOG.warn(
          "the holder of intent {} could not take the {} answer of {} (idempotency key {})",
          claim.record().intentId(),
          status,
          operation,
          claim.key(),
          e);
    }
  }

  /**
   * Checks, before anything is recorded or sent, that an intent the options re-drive belongs to
   * this client's tenant and to {@code operation}.
   *
   * @throws IllegalArgumentException if it does not
   */
  void checkRedrive(String operation, RequestOptions options) {
    if (options.redrive() != null) {
      checkOwn(options.redrive(), operation);
    }
  }

  // Refuses a listed intent that this client would record under another scope: a re-drive through
  // another tenant's client, or as another operation, would mint a second key for it.
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

  /**
   * Records what a lookup at the provider proved about a listed intent of this tenant: a found
   * resource completes the intent, if the store still holds it pending with the listed key (status
   * 0: settled by a lookup, not by an answer to the intent's request).
   */
  void recordReconciled(IntentRecord listed, Reconciliation found) {
    if (!found.found()) {
      return;
    }
    Optional<IntentRecord> stored = store.find(listed.scope(), listed.intentId());
    if (stored.isEmpty()
        || !stored.get().key().equals(listed.key())
        || stored.get().state() != IntentState.PENDING) {
      return;
    }
    IntentState state = found.isSucceeded() ? IntentState.SUCCEEDED : IntentState.FAILED;
    String id = storable(found.resourceId()) ? found.resourceId() : null;
    store.complete(stored.get().complete(state, 0, id));
    LOG.info(
        "intent {} of {} reconciled as {} (resource {}, idempotency key {})",
        listed.intentId(),
        listed.scope().operation(),
        state,
        id,
        listed.key());
  }

  /**
   * Refuses a listed intent of another tenant than this client's.
   *
   * @throws IllegalArgumentException naming both tenants
   */
  void checkTenant(IntentRecord listed) {
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
  List<IntentRecord> pending() {
    return store.pending().stream().filter(r -> r.scope().tenant().equals(tenant)).toList();
  }

  /**
   * Abandons a listed intent if the store still holds it with the listed key: an intent recorded
   * again since (another key) is not the one its caller reconciled.
   */
  boolean abandon(IntentRecord listed) {
    checkTenant(listed);
    Optional<IntentRecord> stored = store.find(listed.scope(), listed.intentId());
    if (stored.isEmpty() || !stored.get().key().equals(listed.key())) {
      return false;
    }
    return store.abandon(listed.scope(), listed.intentId());
  }

  /** Abandons this tenant's intent of an operation. */
  boolean abandon(String operation, String intentId) {
    IntentRecord.checkIntentId(intentId);
    return store.abandon(scope(operation), intentId);
  }

  /**
   * Records a definitive answer. Recording must never turn the answer into an error: the caller
   * gets what the server said, and an intent whose completion could not be written stays pending,
   * so that a re-drive replays it with the same key. A resource id the store cannot hold is
   * recorded as absent. The store waits at most about {@code maxWait} (what is left of the call's
   * deadline).
   */
  void complete(
      Claim claim,
      IntentState state,
      int status,
      String resourceId,
      String operation,
      Duration maxWait) {
    if (claim.record() == null) {
      return;
    }
    String id = storable(resourceId) ? resourceId : null;
    if (id == null && resourceId != null) {
      LOG.warn(
          "resource id of {} characters from {} is not recorded (idempotency key {})",
          resourceId.length(),
          operation,
          claim.key());
    }
    Instant until = clock.instant().plus(maxWait);
    try {
      store.complete(claim.record().complete(state, status, id), maxWait);
    } catch (RuntimeException first) {
      try {
        Duration left = Duration.between(clock.instant(), until);
        if (id == null || left.isNegative() || left.isZero()) {
          throw first; // nothing to leave out, or no time left for a second try
        }
        // Perhaps the id was refused.
        store.complete(claim.record().complete(state, status, null), left);
      } catch (RuntimeException e) {
        LOG.warn(
            "could not record the {} answer of {} (idempotency key {}, intent {}): the intent stays"
                + " pending and a re-drive replays it with the same key",
            status,
            operation,
            claim.key(),
            claim.record().intentId(),
            e);
      }
    }
  }

  // Whether a resource id fits a record: bounded, printable, text that round-trips exactly.
  private static boolean hasControl(String text) {
    for (int i = 0; i < text.length(); i++) {
      if (Character.isISOControl(text.charAt(i))) {
        return true;
      }
    }
    return false;
  }

  static boolean storable(String id) {
    if (id == null || id.isEmpty() || id.length() > MAX_RESOURCE_ID || hasControl(id)) {
      return false;
    }
    try {
      Percent.requireWellFormed(id, "resource id");
      return true;
    } catch (IllegalArgumentException unpairedSurrogate) {
      return false;
    }
  }
}
