package dev.saferetry.jdbc.outbox;

import com.fasterxml.jackson.databind.JsonNode;
import dev.saferetry.CallResult;
import dev.saferetry.Reconciler;
import dev.saferetry.Reconciliation;
import dev.saferetry.SafeRetryClient;
import dev.saferetry.error.Reason;
import dev.saferetry.error.SafeRetryException;
import dev.saferetry.idempotency.IdempotencyKey;
import dev.saferetry.idempotency.IntentClaim;
import dev.saferetry.idempotency.IntentRecord;
import dev.saferetry.idempotency.IntentState;
import dev.saferetry.idempotency.KeyStoreException;
import dev.saferetry.idempotency.StoredRequest;
import dev.saferetry.jdbc.internal.ColumnText;
import dev.saferetry.jdbc.internal.keystore.RelayCodes;
import dev.saferetry.jdbc.internal.outbox.Lease;
import dev.saferetry.jdbc.internal.outbox.LeasedIntent;
import dev.saferetry.jdbc.internal.outbox.RelayLeases;
import dev.saferetry.jdbc.internal.outbox.RelayTable;
import dev.saferetry.jdbc.keystore.JdbcKeyStore;
import dev.saferetry.resilience.Sleeper;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Sends the intents of a {@link JdbcOutbox} through the normal client, from any number of instances
 * at once: each pass claims a batch of due intents under leases, sends them, a few at a time
 * ({@link OutboxRelayBuilder#concurrency}), each with its stored key and its exact stored bytes
 * (same retries, breaker, budget and listener as any call of the client), and records their
 * outcomes together, each under its own lease.
 *
 * <pre>{@code
 * OutboxRelay relay = OutboxRelay.builder().store(store).client(client).owner("orders-7f9c").build();
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
 *   <li>An intent older than the maximum age or past its key's retention is never claimed
 *       (re-sending it could charge twice); a pass holds such intents as {@link
 *       HoldReason#EXPIRED}, at most once per {@link OutboxRelayBuilder#overdueEvery} (the scan
 *       reads every queued row). With a {@link Reconciler} for the operation, each held intent is
 *       then reconciled: a resource found at the provider completes it; otherwise it stays held for
 *       a person ({@link JdbcOutbox#held()}).
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
  private static final Logger LOG = LoggerFactory.getLogger("dev.saferetry.relay");

  private final OutboxRelayBuilder settings;
  private final JdbcOutbox outbox;
  private final RelayLeases leases;
  private final Map<String, SafeRetryClient> clients;
  private final Map<String, Reconciler> reconcilers;
  private final String owner;
  private final Duration leaseFor;
  private final int batch;
  private final int concurrency;
  private final Duration overdueEvery;
  private final Duration maxAge;
  private final Duration backoff;
  private final Duration maxBackoff;
  private final Duration pollInterval;
  private final int maxClaims;
  private final Clock clock;
  private final Sleeper sleeper;
  private final Map<IdempotencyKey, Instant> reconciledAt = new ConcurrentHashMap<>();
  private final Object lifecycle = new Object();

  /** Told of every answer and pass (see {@link SafeRetryMeters}). */
  private final CopyOnWriteArrayList<RelayObserver> observers = new CopyOnWriteArrayList<>();

  /** Set by {@link #close()}: the relay's observers were told and let go. */
  private volatile boolean closed;

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

  private Thread worker;
  private final RelaySenders senders;
  private volatile Instant lastOverdueScan;
  private volatile boolean running;
  private volatile boolean idle;

  OutboxRelay(OutboxRelayBuilder b) {
    this.settings = b.copy();
    this.outbox = JdbcOutbox.of(b.store);
    this.leases = RelayLeases.of(b.store);
    this.clients = Map.copyOf(b.clients);
    this.reconcilers = Map.copyOf(b.reconcilers);
    this.owner = b.owner;
    this.leaseFor = b.leaseFor;
    this.batch = b.batchSize;
    this.concurrency = b.concurrency;
    this.overdueEvery = b.overdueEvery;
    this.maxAge = b.maxAge;
    this.backoff = b.backoff;
    this.maxBackoff = b.maxBackoff;
    this.pollInterval = b.pollInterval;
    this.maxClaims = b.maxClaims;
    this.clock = b.clock;
    this.sleeper = b.sleeper;
    this.senders = new RelaySenders(concurrency, owner);
  }

  /**
   * {@return a builder; a {@link OutboxRelayBuilder#store} and at least one {@link
   * OutboxRelayBuilder#client} are required}
   */
  public static OutboxRelayBuilder builder() {
    return new OutboxRelayBuilder();
  }

  /**
   * {@return a builder holding this relay's settings, to build another relay from (give it an owner
   * of its own)}
   */
  public OutboxRelayBuilder newBuilder() {
    return settings.copy();
  }

  /**
   * Runs one pass: holds overdue intents (at most once per {@link
   * OutboxRelayBuilder#overdueEvery}), reconciles held ones, claims up to a batch of due intents,
   * sends them, up to {@link OutboxRelayBuilder#concurrency} at a time, and records their outcomes
   * together. Returns when all claimed intents are recorded.
   *
   * @return what the pass did
   * @throws KeyStoreException if the database failed during the claim or the holds
   */
  public RelayPass runOnce() {
    int expired = 0;
    Instant started = clock.instant();
    Instant scanned = lastOverdueScan;
    if (scanned == null
        || started.isBefore(scanned)
        || !started.isBefore(scanned.plus(overdueEvery))) {
      lastOverdueScan = started;
      expired = leases.holdOverdue(maxAge);
    }
    int reconciled = 0;
    if (!reconcilers.isEmpty()) {
      try {
        reconciled = reconcileHeld(clock.instant());
      } catch (RuntimeException e) {
        // A held row that cannot be read (or a lookup that failed) must not stop the sending.
        LOG.warn("could not reconcile held intents: {}", e.toString());
      }
    }
    Instant asked = clock.instant(); // the leases were granted no earlier than this
    RelayTable.Claim claim = leases.claimReporting(owner, leaseFor, maxAge, batch);
    for (RelayTable.Tampered t : claim.held()) {
      LOG.warn(
          "intent {} held as TAMPERED, not sent: {}",
          ColumnText.printable(t.intentId()),
          ColumnText.printable(t.problem()));
    }
    List<LeasedIntent> claimed = claim.claimed();
    Pass pass = new Pass();
    if (concurrency == 1 || claimed.size() == 1) {
      for (LeasedIntent intent : claimed) {
        pass.add(sendOne(new Held(intent.lease(), asked), intent));
        pass.recordIfLeasesAgeing();
      }
    } else {
      sendConcurrently(claimed, asked, pass);
    }
    pass.record();
    int[] counts = pass.counts;
    RelayPass done =
        new RelayPass(
            claimed.size(),
            counts[Ending.SUCCEEDED.ordinal()],
            counts[Ending.REJECTED.ordinal()],
            counts[Ending.RETRY.ordinal()],
            expired + counts[Ending.EXPIRED.ordinal()],
            counts[Ending.LOST.ordinal()],
            reconciled,
            claim.held().size() + counts[Ending.HELD.ordinal()],
            counts[Ending.UNSETTLED.ordinal()]);
    observers.forEach(o -> o.passed(done));
    return done;
  }

  /**
   * Sends the claimed intents on the relay's senders, at most {@link #concurrency} at a time, and
   * waits for every one of them, even when interrupted (the interrupt is kept): a pass ends only
   * when every claimed intent is sent and ready to record.
   */
  private void sendConcurrently(List<LeasedIntent> claimed, Instant asked, Pass pass) {
    senders.runAll(
        claimed,
        intent -> sendOne(new Held(intent.lease(), asked), intent),
        Sent.ended(Ending.LOST), // an Error in the send: the pass still ends
        pass::add,
        pass::recordIfLeasesAgeing);
  }

  /** The sends of a pass: their endings so far, and the outcomes waiting to be recorded. */
  private final class Pass {
    final int[] counts = new int[Ending.values().length];
    final List<Sent> toRecord = new ArrayList<>();

    void add(Sent sent) {
      if (sent.completion == null) {
        counts[sent.ending.ordinal()]++;
      } else {
        toRecord.add(sent);
      }
    }

    /**
     * Records what is waiting now if half a lease has gone by, by this relay's clock, since one of
     * its leases was granted or renewed: an outcome is never held back until its lease could end.
     */
    void recordIfLeasesAgeing() {
      Instant now = clock.instant();
      for (Sent sent : toRecord) {
        if (now.isBefore(sent.held.since)
            || !now.isBefore(sent.held.since.plus(leaseFor.dividedBy(2)))) {
          record();
          return;
        }
      }
    }

    /** Records every outcome waiting, together, each under its own lease. */
    void record() {
      if (toRecord.isEmpty()) {
        return;
      }
      List<RelayTable.Completion> completions = new ArrayList<>(toRecord.size());
      for (Sent sent : toRecord) {
        completions.add(new RelayTable.Completion(sent.held.lease, sent.completion, sent.note));
      }
      boolean[] recorded;
      try {
        recorded = leases.completeAll(completions);
      } catch (RuntimeException e) {
        // The database failed (or a bug): the leases run out and a later pass takes them over.
        LOG.warn("could not record {} outcomes: {}", toRecord.size(), e.toString());
        recorded = new boolean[toRecord.size()];
      }
      for (int i = 0; i < recorded.length; i++) {
        IntentRecord completion = toRecord.get(i).completion;
        boolean failed = completion.state() == IntentState.FAILED;
        Ending ending = !recorded[i] ? Ending.LOST : failed ? Ending.REJECTED : Ending.SUCCEEDED;
        if (ending == Ending.REJECTED) {
          LOG.warn(
              "intent {} rejected with HTTP {}: held", completion.intentId(), completion.status());
        }
        counts[ending.ordinal()]++;
      }
      toRecord.clear();
    }
  }

  /**
   * How a send ended: an ending already recorded (or nothing to record), or a definitive outcome
   * still to record under the lease.
   */
  private record Sent(Ending ending, Held held, IntentRecord completion, String note) {
    static Sent ended(Ending ending) {
      return new Sent(ending, null, null, null);
    }
  }

  /** Sends one intent; never throws. */
  private Sent sendOne(Held held, LeasedIntent intent) {
    try {
      return send(held, intent);
    } catch (RuntimeException e) {
      // The database failed (or a bug): the lease runs out and a later pass takes it over.
      LOG.warn("could not send or record {}: {}", intent.record().intentId(), e.toString());
      return Sent.ended(Ending.LOST);
    }
  }

  private enum Ending {
    SUCCEEDED,
    REJECTED,
    RETRY,
    EXPIRED,
    HELD,
    LOST,
    UNSETTLED
  }

  /**
   * A lease this relay holds, and when by its own clock it was granted or last renewed. Only the
   * elapsed time since then is trusted; the lease's end is on the database's clock.
   */
  private static final class Held {
    Lease lease;
    Instant since;

    Held(Lease lease, Instant since) {
      this.lease = lease;
      this.since = since;
    }
  }

  private Sent send(Held lease, LeasedIntent intent) {
    IntentRecord record = intent.record();
    if (intent.attempts() > maxClaims) {
      // Claimed again after its last allowed claim ended without a record (its relay died).
      return Sent.ended(
          park(lease, intent, "claimed " + intent.attempts() + " times without an ending"));
    }
    SafeRetryClient client = clients.get(record.scope().tenant());
    if (client == null) {
      String note = "no client for tenant " + record.scope().tenant() + " in relay " + owner;
      return Sent.ended(retry(lease, intent, maxBackoff, note));
    }
    StoredRequest r = intent.request();
    Claim claim = new Claim(record, lease);
    Sending sending = hand(client, r, claim);
    if (sending instanceof Sending.Refused refused) {
      LOG.warn(
          "intent {} held as UNSENDABLE, not sent: {}",
          record.intentId(),
          ColumnText.printable(refused.why()));
      String note = "not sent: " + refused.why();
      return Sent.ended(hold(lease.lease, HoldReason.UNSENDABLE, note) ? Ending.HELD : Ending.LOST);
    }
    CallResult<JsonNode> result =
        sending instanceof Sending.Answered answered ? answered.result() : null;
    SafeRetryException error = sending instanceof Sending.Failed failed ? failed.error() : null;
    for (RelayObserver o : observers) {
      o.answered(result, error);
    }
    if (claim.lost) {
      LOG.info("lease on {} lost to another relay; nothing recorded", record.intentId());
      return Sent.ended(Ending.LOST);
    }
    IntentRecord completion = claim.completion;
    if (completion == null && result != null) {
      completion = record.complete(IntentState.SUCCEEDED, result.status(), null);
    }
    if (completion != null) {
      boolean failed = completion.state() == IntentState.FAILED;
      String note = failed ? "HTTP " + completion.status() + " (definitive)" : null;
      return new Sent(null, lease, completion, note); // recorded with the pass's others
    }
    SafeRetryException e = error;
    String note = e.outcome() + " (" + e.reason() + ") after " + e.attempts().size() + " attempts";
    if (e.reason() == Reason.INTENT_EXPIRED) {
      return Sent.ended(hold(lease.lease, HoldReason.EXPIRED, note) ? Ending.EXPIRED : Ending.LOST);
    }
    if (e.reason().mustReconcile()) {
      // Re-sending would get the same answer forever: a person or the reconciler decides.
      LOG.warn("intent {} unsettled ({}): held for reconciliation", record.intentId(), e.reason());
      return Sent.ended(
          hold(lease.lease, HoldReason.UNSETTLED, note) ? Ending.UNSETTLED : Ending.LOST);
    }
    return Sent.ended(retry(lease, intent, delay(intent.attempts()), note));
  }

  /**
   * Hands the stored request to the client under {@code claim}. An {@link IllegalArgumentException}
   * before the client first asked whether the claim is still owned is its refusal of the row before
   * sending; after that, it is a bug and propagates.
   */
  private static Sending hand(SafeRetryClient client, StoredRequest request, Claim claim) {
    try {
      return new Sending.Answered(client.send(request, claim));
    } catch (IllegalArgumentException e) {
      if (claim.sendingStarted) {
        throw e;
      }
      return new Sending.Refused(e.getMessage());
    } catch (SafeRetryException e) {
      return new Sending.Failed(e);
    }
  }

  /**
   * Makes the intent due again after {@code after}, or parks it when this was its last allowed
   * claim: an ending that says nothing definitive, {@code maxClaims} times over, is not retried
   * silently forever.
   */
  private Ending retry(Held lease, LeasedIntent intent, Duration after, String note) {
    if (intent.attempts() >= maxClaims) {
      return park(lease, intent, note + "; claimed " + intent.attempts() + " times");
    }
    return retry(lease.lease, after, note) ? Ending.RETRY : Ending.LOST;
  }

  private Ending park(Held lease, LeasedIntent intent, String note) {
    LOG.warn(
        "intent {} parked as TOO_MANY_ATTEMPTS after {} claims: {}",
        intent.record().intentId(),
        intent.attempts(),
        ColumnText.printable(note));
    return hold(lease.lease, HoldReason.TOO_MANY_ATTEMPTS, note) ? Ending.HELD : Ending.LOST;
  }

  /**
   * The relay's hold on an intent while its stored request is sent: the lease, renewed before an
   * attempt once half of it has gone by; the outcome kept to be recorded under the lease.
   */
  private final class Claim implements IntentClaim {
    private final IntentRecord record;
    private final Held lease;
    boolean sendingStarted; // the client asked before an attempt: past its checks of the row
    boolean lost;
    IntentRecord completion;

    Claim(IntentRecord record, Held lease) {
      this.record = record;
      this.lease = lease;
    }

    @Override
    public IntentRecord intent() {
      return record;
    }

    @Override
    public boolean stillOwned() {
      sendingStarted = true;
      lost = !renew(lease);
      return !lost;
    }

    @Override
    public void complete(IntentRecord outcome) {
      completion = outcome;
    }
  }

  private boolean hold(Lease lease, HoldReason reason, String note) {
    return leases.hold(lease, RelayCodes.Hold.valueOf(reason.name()), note);
  }

  private boolean retry(Lease lease, Duration after, String note) {
    return leases.retryAfter(lease, after, note);
  }

  /** Backoff after the {@code n}th claim: {@code backoff * 2^(n-1)}, at most the maximum. */
  Duration delay(int n) {
    Duration d = backoff;
    for (int i = 1; i < n && d.compareTo(maxBackoff) < 0; i++) {
      d = d.multipliedBy(2);
    }
    return d.compareTo(maxBackoff) > 0 ? maxBackoff : d;
  }

  /**
   * Renews the lease once half of it has elapsed, by this relay's clock, since it was granted or
   * renewed (or when that clock went back); false when it was lost.
   */
  private boolean renew(Held lease) {
    Instant now = clock.instant();
    if (!now.isBefore(lease.since) && now.isBefore(lease.since.plus(leaseFor.dividedBy(2)))) {
      return true;
    }
    try {
      Optional<Lease> renewed = leases.renew(lease.lease, leaseFor);
      renewed.ifPresent(
          l -> {
            lease.lease = l;
            lease.since = now;
          });
      return renewed.isPresent();
    } catch (KeyStoreException e) {
      LOG.warn("could not renew the lease on {}: {}", lease.lease.intentId(), e.toString());
      return false; // stop sending: another relay may take it over once the lease ends
    }
  }

  /** Reconciles held intents whose operation has a reconciler, each at most once a backoff. */
  private int reconcileHeld(Instant now) {
    int done = 0;
    for (OutboxIntent held : outbox.held()) {
      IntentRecord record = held.record();
      Reconciler reconciler = reconcilers.get(record.scope().operation());
      SafeRetryClient client = clients.get(record.scope().tenant());
      Instant last = reconciledAt.get(record.key());
      if (reconciler == null
          || client == null
          || record.state() != IntentState.PENDING
          || (last != null && now.isBefore(last.plus(maxBackoff)))) {
        continue;
      }
      reconciledAt.put(record.key(), now);
      Reconciliation found = client.reconcile(record, reconciler);
      LOG.info("held intent {} reconciled: {}", record.intentId(), found);
      if (found.found()) {
        reconciledAt.remove(record.key());
        done++;
      }
    }
    return done;
  }

  /** Starts passes on a daemon thread: one after another, a poll interval apart when idle. */
  public void start() {
    synchronized (lifecycle) {
      if (worker != null) {
        throw new IllegalStateException("the relay is running");
      }
      running = true;
      worker = new Thread(this::loop, "saferetry-relay-" + owner);
      worker.setDaemon(true);
      worker.start();
    }
  }

  private void loop() {
    while (running) {
      RelayPass pass = null;
      try {
        pass = runOnce();
      } catch (RuntimeException e) {
        LOG.warn("relay pass failed: {}", e.toString());
      }
      if (pass == null || pass.claimed() == 0) {
        idle = true;
        try {
          if (running) {
            sleeper.sleep(pollInterval);
          }
        } catch (InterruptedException e) {
          return;
        } finally {
          idle = false;
        }
      }
    }
  }

  /**
   * Stops the passes: the pass running finishes (every claimed intent is recorded), then the thread
   * ends. Waits for it.
   *
   * @throws InterruptedException if interrupted while waiting
   */
  public void stop() throws InterruptedException {
    Thread t;
    synchronized (lifecycle) {
      t = worker;
      worker = null;
      running = false;
    }
    if (t != null) {
      if (idle) {
        t.interrupt();
      }
      t.join();
    }
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
