package dev.saferetry.idempotency;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * Where a client keeps the idempotency keys of its intents, so that the same intent reuses the same
 * key across calls, threads and process restarts.
 *
 * <p>The SPI is deliberately small and storage-neutral, so that a file, a database table or any
 * shared store can implement it. The SDK ships {@link #inMemory()} (the default; keys live as long
 * as the process), {@link dev.saferetry.filestore.FileKeyStore} (keys survive a crash), and the
 * {@code saferetry-jdbc} artifact {@code JdbcKeyStore} (keys in a database, shared by every
 * instance of a service).
 *
 * <p><b>What implementations must guarantee.</b>
 *
 * <ul>
 *   <li><b>Atomic claim.</b> {@link #begin} is atomic per (scope, intent id): of two concurrent
 *       callers, across threads and — for shared stores — across processes, exactly one records its
 *       candidate; the other gets the winner's record.
 *   <li><b>Durable before send.</b> When {@link #begin} reports that it created the record, the
 *       record is on stable storage as far as the store promises durability (the file store:
 *       fsync'd). The client sends the first byte only after {@code begin} returns.
 *   <li><b>Relaxed completion.</b> {@link #complete} need not be durable when it returns: a lost
 *       completion only leaves the intent pending, which causes a safe replay with the same key.
 *   <li><b>Exact text.</b> Every record read back equals the record written, field for field: text
 *       (any well-formed Unicode, including characters outside the Basic Multilingual Plane) and
 *       instants to the nanosecond. {@link IntentRecord} and {@link IntentScope} refuse text that
 *       has no exact encoding. The record written is the one {@link #begin} returns: the candidate,
 *       or — for a store that keeps time by a clock of its own — the candidate with that clock's
 *       creation time and the same retention.
 *   <li><b>Time.</b> Every retention and expiry decision is made at one clock. A store used by one
 *       process (in memory, a file) has only its host's: it judges at the times its callers give
 *       ({@code candidate.createdAt()}, {@code purgeExpired(now)}), which follow the host's clock,
 *       stepped or not. A store shared by instances (a database) judges at the clock they share,
 *       never at a caller's: a caller's time may make {@link #purgeExpired} more cautious (it is
 *       judged at the earlier of the two), never make a record expire sooner than that clock says,
 *       and a candidate is recorded at that clock's time.
 *   <li><b>No silent loss.</b> A store that cannot read its data throws {@link KeyStoreException};
 *       it never drops or rewrites records it could not understand.
 *   <li><b>Thread safety.</b> Every method may be called from any thread at any time.
 * </ul>
 */
public interface KeyStore extends AutoCloseable {

  /**
   * {@return a new, empty store in the process's memory} The same intent reuses its key across
   * calls and threads that share the store, but not across a restart. This is the client's default.
   * The store is thread-safe; closing it does nothing.
   */
  static KeyStore inMemory() {
    return new InMemoryKeyStore();
  }

  /**
   * {@return the record for the candidate's intent, recording the candidate if there is none}
   *
   * <p>Atomically: if no record exists for {@code candidate.scope()} and {@code
   * candidate.intentId()}, or the existing one is expired and is not {@link IntentState#PENDING},
   * the candidate is durably recorded and returned. Expired at {@code candidate.createdAt()} for a
   * store with its host's clock only; at its own clock for a store that has one (see "Time" above:
   * there the candidate is recorded at that clock's time, with its retention, and a caller whose
   * clock runs ahead cannot replace a record that clock calls fresh). Otherwise the existing record
   * is returned unchanged — including an expired pending one, which the client refuses to re-send
   * with its stale key. The result says whether this call recorded the candidate; exactly one of
   * any number of concurrent callers for the same intent gets {@code created}.
   *
   * <p>A store may refuse an existing intent that is not the caller's to send — one an operator
   * abandoned, or one an outbox holds for its relays or for a person — with an {@link
   * IntentRefusedException}: the client then sends nothing and ends the call {@code UNKNOWN}.
   *
   * @param candidate a {@link IntentState#PENDING} record with a freshly minted key
   * @throws KeyStoreException if the record could not be made durable
   * @throws IntentRefusedException if the intent exists and is not the caller's to send
   */
  BeginResult begin(IntentRecord candidate);

  /**
   * Does what {@link #begin(IntentRecord)} does, waiting at most about {@code maxWait} — the
   * remaining deadline of the call that records the intent — for anything the store waits for (a
   * lock another process holds, a slow database). When a wait is cut, throws {@link
   * KeyStoreException}: the call then ends without sending anything, and whether the candidate was
   * recorded is unknown (a pending record is harmless: it is re-driven with its key). A store
   * states how closely it keeps to {@code maxWait}.
   *
   * <p>The default ignores {@code maxWait}: right for a store that never waits for another process.
   * A store that delegates to another forwards this method, or the bound is lost on the way.
   *
   * @param candidate a {@link IntentState#PENDING} record with a freshly minted key
   * @param maxWait the longest the store may wait; zero or more
   * @return as {@link #begin(IntentRecord)}
   * @throws KeyStoreException if the record could not be made durable, or a wait was cut
   */
  default BeginResult begin(IntentRecord candidate, Duration maxWait) {
    return begin(candidate);
  }

  /**
   * Records a definitive outcome for an intent, if the stored record still has {@code
   * completed.key()}; otherwise does nothing. Need not be durable when it returns.
   *
   * @param completed the record in state {@link IntentState#SUCCEEDED} or {@link
   *     IntentState#FAILED}
   * @throws KeyStoreException if the store is unusable
   */
  void complete(IntentRecord completed);

  /**
   * Does what {@link #complete(IntentRecord)} does, waiting at most about {@code maxWait} (see
   * {@link #begin(IntentRecord, Duration)}); an outcome not recorded leaves the intent pending. The
   * default ignores {@code maxWait}.
   *
   * @param completed the record in state {@link IntentState#SUCCEEDED} or {@link
   *     IntentState#FAILED}
   * @param maxWait the longest the store may wait; zero or more
   * @throws KeyStoreException if the store is unusable, or a wait was cut
   */
  default void complete(IntentRecord completed, Duration maxWait) {
    complete(completed);
  }

  /**
   * {@return the stored record of an intent, expired or not}
   *
   * @param scope the scope
   * @param intentId the intent id
   * @throws KeyStoreException if the store is unusable
   */
  Optional<IntentRecord> find(IntentScope scope, String intentId);

  /**
   * {@return all {@link IntentState#PENDING} records of every tenant, oldest first: after a
   * restart, these are the intents whose outcome is unknown and which the application should
   * re-drive or reconcile (a client lists its own tenant's through {@code
   * SafeRetryClient.pendingIntents()})}
   *
   * @throws KeyStoreException if the store is unusable
   */
  List<IntentRecord> pending();

  /**
   * Forgets an intent on purpose — for example after its outcome was reconciled with the provider
   * by other means. A later call with the same intent id mints a new key. Durable when it returns.
   * A store refuses to forget an intent that something else still holds (an outbox's queued, parked
   * or abandoned intent: its operator resolves it, and records who did).
   *
   * @param scope the scope
   * @param intentId the intent id
   * @return whether a record was removed
   * @throws KeyStoreException if the removal could not be made durable
   * @throws IntentRefusedException if something else holds the intent; nothing was removed
   */
  boolean abandon(IntentScope scope, String intentId);

  /**
   * Drops records that are expired at {@code now} and are not pending, and reclaims their space. A
   * store with a clock of its own judges at the earlier of {@code now} and that clock: a caller's
   * time can make a purge more cautious, never delete a record that clock still keeps.
   *
   * @param now the time to judge expiry at (the latest: see above)
   * @return the number of records dropped
   * @throws KeyStoreException if the store is unusable
   */
  int purgeExpired(Instant now);

  /**
   * {@return the time at which an intent's expiry is judged, given the caller's clock reading: for
   * a store with its host's clock only, never earlier than {@code clock} nor than the latest time
   * this store has recorded; for a store shared by instances, the clock they share, whatever {@code
   * clock} says}
   *
   * <p>A clock stepped back (after a restart, or on another instance sharing the store) must not
   * make an expired pending intent look fresh: its key would be re-sent after the server forgot it.
   * The client therefore judges a pending intent it found at this time, not at its own clock's. A
   * store that keeps records across restarts keeps this floor across them too (the file store: the
   * latest creation time it has recorded, kept through compactions). A store shared by several
   * instances judges by a clock they share (the JDBC store: the database's) and returns that
   * clock's time, earlier or later than {@code clock}: an instance whose clock runs ahead does not
   * refuse to send a pending intent that clock calls fresh, one whose clock runs behind does not
   * re-send one it calls expired. Called only when a pending intent is found, so it may cost a
   * round trip.
   *
   * <p>A store never uses this time to replace or purge a completed record, which would let a clock
   * that once ran fast mint a second key for an intent that is not expired.
   *
   * <p>The default returns {@code clock}: right for a store that keeps nothing across a restart and
   * is used by one process.
   *
   * @param clock the caller's clock reading
   * @throws KeyStoreException if the store is unusable
   */
  default Instant expiryTime(Instant clock) {
    return clock;
  }

  /** Releases the store's resources (files, locks). Idempotent. */
  @Override
  void close();
}
