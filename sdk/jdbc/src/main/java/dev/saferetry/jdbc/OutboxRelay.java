package dev.saferetry.jdbc;

import dev.saferetry.Reconciler;
import dev.saferetry.SafeRetryClient;
import dev.saferetry.error.Reason;
import dev.saferetry.idempotency.KeyStoreException;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * Sends the intents of a {@link JdbcOutbox} through the normal client, from any number of instances
 * at once: each pass claims a batch of due intents under leases, sends them, a few at a time
 * ({@link OutboxRelayBuilder#concurrency}), each with its stored key and its exact stored bytes
 * (same retries, breaker, budget and listener as any call of the client), and records their
 * outcomes together, each under its own lease.
 *
 * <pre>{@code
 * OutboxRelay relay = OutboxRelay.builder(store, client).owner("orders-7f9c").build();
 * relay.start(); // a daemon thread; relay.stop() on shutdown
 * }</pre>
 *
 * <p><b>Rules.</b>
 *
 * <ul>
 *   <li>A success completes the intent; a definitive rejection (a non-retryable 4xx) holds it as
 *       {@link HoldReason#REJECTED}; an answer a re-send cannot change and that proves nothing (a
 *       replayed stored error, a request not to retry: {@link Reason#mustReconcile()}) holds it,
 *       still pending, as {@link HoldReason#UNSETTLED}; any other ending (outcome unknown, breaker
 *       open, retries exhausted) makes it due again after a backoff that doubles per claim, from
 *       {@link OutboxRelayBuilder#backoff} up to its maximum, until it was claimed {@link
 *       OutboxRelayBuilder#maxClaims} times: then it is <b>parked</b>, held as {@link
 *       HoldReason#TOO_MANY_ATTEMPTS}. A held intent is a parked one: never retried silently, and
 *       with an ordering key it keeps the later intents of its key waiting until an operator
 *       resolves it or lets the key continue ({@link OutboxAdmin}).
 *   <li><b>Exactly as enqueued, or not at all.</b> The key goes where the row records it (a header
 *       of that name and form, or the stored body, which must carry exactly the intent's key),
 *       whatever the relay's client does with its own calls; the client adds its own credentials
 *       after the stored headers. A row changed in the table after it was enqueued (its stored
 *       request's seal no longer verifies with the store's seal keys) or unreadable is held as
 *       {@link HoldReason#TAMPERED} by the claim; a row whose target would leave the client's base
 *       URL after the HTTP client's normalisation, or whose stored header (or key header) is one
 *       the client sets itself — its credential, its per-attempt headers — is held as {@link
 *       HoldReason#UNSENDABLE}. Neither is sent.
 *   <li>The lease is renewed before each attempt once half of it has elapsed since it was granted
 *       or last renewed; if it cannot be renewed (another instance took the intent over), the call
 *       stops before sending anything more and records nothing. Every record is fenced by the
 *       lease: a completion from an instance that lost its lease is refused.
 *   <li>An intent older than the table's maximum age ({@link JdbcOutbox#maxAge()}) or past its
 *       key's retention is never claimed (re-sending it could charge twice); a pass holds such
 *       intents as {@link HoldReason#EXPIRED}, at most once per {@link
 *       OutboxRelayBuilder#overdueEvery} (the scan reads every queued row). With a {@link
 *       Reconciler} for the operation, each held intent is then reconciled: a resource found at the
 *       provider completes it; otherwise it stays held for a person ({@link JdbcOutbox#held()}). A
 *       pass reconciles at most {@link OutboxRelayBuilder#reconcileBudget} held intents, reading
 *       only their records (never their stored requests), and the next pass goes on where it
 *       stopped: each held intent is reconciled in turn, at most once per longest backoff, and a
 *       pass costs the same however many intents are held.
 *   <li><b>What it claims.</b> A relay claims only intents of the tenants it has a client for;
 *       another tenant's intents are left to the relays that can send them.
 *   <li><b>Its thread.</b> What a send, a reconciler or an observer throws, an {@link Error} too,
 *       does not end the relay: the intent stays leased until its lease ends and is taken over
 *       then, never recorded as failed without an answer that proves it. An interrupt of the
 *       relay's thread ends it before another claim (intents claimed and not yet sent are made due
 *       again). A thread that ended other than by {@link #stop()} is logged and reported ({@link
 *       #isRunning()}, {@link #endedBy()}), and {@link #start()} starts it again.
 *   <li><b>Recording.</b> The definitive outcomes of a pass are recorded together, in one
 *       transaction (on PostgreSQL one statement, whose commit does not wait for its WAL flush: a
 *       completion lost in a crash leaves the intent leased, due again once the lease ends, and
 *       re-sent with the same key, which the provider answers from its record), each fenced by its
 *       own lease; an outcome is recorded sooner when half of its lease has gone by.
 *   <li><b>Time.</b> Every lease decision is made at the database's clock, read in the transaction
 *       that makes it: which intents are due, which leases have expired and may be taken over, when
 *       a granted or renewed lease ends, when a backed-off intent is due again, and which intents
 *       are overdue. A pass reads it once, in its claim's transaction (the client then judges a
 *       sent intent's key retention at that reading plus the time elapsed since, see {@link
 *       JdbcKeyStore#expiryTime}). Relays on hosts whose clocks disagree, by seconds or by hours,
 *       therefore agree on all of them: one whose clock runs ahead does not take a live lease over
 *       early, one whose clock runs behind does not keep a lease past its end. The relay's own
 *       clock ({@link OutboxRelayBuilder#clock}) only measures elapsed time for its own scheduling
 *       — when half of a lease has gone by and it is time to renew, how often a held intent is
 *       reconciled, when the overdue scan is due — and is never compared with a time stored in the
 *       table. Its {@link OutboxRelayBuilder#sleeper} paces the passes of {@link #start()}.
 * </ul>
 *
 * <p>This class is thread-safe; {@link #runOnce()} may be called from any thread, and instances on
 * any number of machines may work one table.
 */
public final class OutboxRelay implements AutoCloseable {
  private final String owner;

  /** Told of every answer and pass (see {@link SafeRetryMeters}). */
  private final CopyOnWriteArrayList<RelayObserver> observers = new CopyOnWriteArrayList<>();

  private final RelaySenders senders;
  private final HeldReconciliation held;
  private final RelayPassRun pass;
  private final RelayLoop loop;
  private final Duration leaseFor;

  OutboxRelay(OutboxRelayBuilder b) {
    this.owner = b.owner;
    this.leaseFor = b.leaseFor;
    this.senders = new RelaySenders(b.concurrency, owner);
    this.held =
        new HeldReconciliation(
            b.store.outbox(),
            Map.copyOf(b.clients),
            Map.copyOf(b.reconcilers),
            b.reconcileBudget,
            b.maxBackoff,
            b.clock);
    this.pass = new RelayPassRun(b, senders, held, observers);
    this.loop = new RelayLoop(owner, this::runOnce, b.sleeper, b.pollInterval, observers);
  }

  /** Set by {@link #close()}: the relay's observers were told and let go. */
  private volatile boolean closed;

  private final Object lifecycle = new Object();

  /**
   * Adds an observer unless an equal one is there already (one per registry: every {@link
   * SafeRetryMeters} bound to this relay counts once in each registry).
   *
   * @return whether it was added
   * @throws IllegalStateException if the relay is closed
   */
  boolean observe(RelayObserver observer) {
    synchronized (lifecycle) {
      if (closed) {
        throw new IllegalStateException("the relay " + owner + " is closed");
      }
      return observers.addIfAbsent(observer);
    }
  }

  /** Whether {@link #close()} was called. */
  boolean isClosed() {
    return closed;
  }

  String owner() {
    return owner;
  }

  /** How many held rows the last pass read (for tests). */
  int heldRowsRead() {
    return held.lastRows();
  }

  /**
   * {@return a builder for a relay of {@code store}'s outbox that sends through {@code client} (the
   * intents of its tenant; add clients of other tenants with {@link OutboxRelayBuilder#client})}
   *
   * @param store the key store whose outbox to work
   * @param client the client to send with
   */
  public static OutboxRelayBuilder builder(JdbcKeyStore store, SafeRetryClient client) {
    return new OutboxRelayBuilder(store, client);
  }

  /**
   * Runs one pass: holds overdue intents (at most once per {@link
   * OutboxRelayBuilder#overdueEvery}), reconciles a page of held ones, claims up to a batch of due
   * intents of its tenants, sends them, up to {@link OutboxRelayBuilder#concurrency} at a time, and
   * records their outcomes together. Returns when all claimed intents are recorded.
   *
   * @return what the pass did
   * @throws KeyStoreException if the database failed during the claim or the holds
   */
  public RelayPass runOnce() {
    return pass.run();
  }

  /** Backoff after the {@code n}th claim: {@code backoff * 2^(n-1)}, at most the maximum. */
  Duration delay(int n) {
    return pass.delay(n);
  }

  /**
   * Starts passes on a daemon thread: one after another, a poll interval apart when idle. Starts it
   * again after it ended (see {@link #endedBy()}).
   *
   * @throws IllegalStateException if the thread is running
   */
  public void start() {
    loop.start();
  }

  /** {@return whether the relay's thread is running: started, not stopped, and not ended} */
  public boolean isRunning() {
    return loop.isRunning();
  }

  /**
   * {@return why the relay's thread ended on its own, if it did since it was last started} An
   * {@link InterruptedException} when it was interrupted, else what ended it; empty while it runs,
   * after {@link #stop()}, and before {@link #start()}.
   */
  public Optional<Throwable> endedBy() {
    return loop.endedBy();
  }

  /**
   * Stops the passes: the pass running finishes (every claimed intent is recorded), then the thread
   * ends. Waits for it.
   *
   * @throws InterruptedException if interrupted while waiting
   */
  public void stop() throws InterruptedException {
    loop.stop();
    senders.shutdown();
  }

  /**
   * Stops the passes, as {@link #stop()}, and removes the relay's counters from every registry
   * {@link SafeRetryMeters} bound them to (a relay that is only stopped keeps them, since it may
   * start again); the store and clients are left open.
   */
  @Override
  public void close() {
    try {
      stop();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } finally {
      synchronized (lifecycle) {
        closed = true;
      }
      observers.forEach(RelayObserver::closed);
      observers.clear();
    }
  }

  @Override
  public String toString() {
    return "OutboxRelay[" + owner + "]";
  }
}
