package dev.saferetry.jdbc.outbox;

import com.fasterxml.jackson.databind.JsonNode;
import dev.saferetry.CallResult;
import dev.saferetry.SafeRetryClient;
import dev.saferetry.error.Reason;
import dev.saferetry.error.SafeRetryException;
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
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One pass of a relay's sending (see {@link OutboxRelay} for the rules): holds overdue intents,
 * reconciles a page of held ones, claims a batch of due intents of the relay's tenants, sends them
 * and records their outcomes together. An interrupt of the pass's thread stops it claiming and
 * sending at once: intents it claimed and did not send are made due again.
 */
final class RelayPassRun {
  private static final Logger LOG = LoggerFactory.getLogger("dev.saferetry.relay");

  private final JdbcOutbox outbox;
  private final RelayLeases leases;
  private final Map<String, SafeRetryClient> clients;
  private final List<String> tenants;
  private final String owner;
  private final Duration leaseFor;
  private final int batch;
  private final int concurrency;
  private final Duration overdueEvery;
  private final Duration maxAge;
  private final Duration backoff;
  private final Duration maxBackoff;
  private final int maxClaims;
  private final Clock clock;
  private final RelaySenders senders;
  private final HeldReconciliation held;
  private final List<RelayObserver> observers;
  private volatile Instant lastOverdueScan;

  RelayPassRun(
      RelayConfig b, RelaySenders senders, HeldReconciliation held, List<RelayObserver> observers) {
    this.outbox = JdbcOutbox.of(b.store());
    this.leases = RelayLeases.of(b.store());
    this.clients = Map.copyOf(b.clients());
    this.tenants = List.copyOf(clients.keySet());
    this.owner = b.owner();
    this.leaseFor = b.leaseFor();
    this.batch = b.batchSize();
    this.concurrency = b.concurrency();
    this.overdueEvery = b.overdueEvery();
    this.maxAge = outbox.maxAge();
    this.backoff = b.backoff();
    this.maxBackoff = b.maxBackoff();
    this.maxClaims = b.maxClaims();
    this.clock = b.clock();
    this.senders = senders;
    this.held = held;
    this.observers = observers;
  }

  RelayPass run() {
    int expired = 0;
    Instant started = clock.instant();
    Instant scanned = lastOverdueScan;
    if (scanned == null
        || started.isBefore(scanned)
        || !started.isBefore(scanned.plus(overdueEvery))) {
      lastOverdueScan = started;
      expired = leases.holdOverdue();
    }
    int reconciled = 0;
    try {
      reconciled = held.pass();
    } catch (RuntimeException | Error e) {
      // A held row that cannot be read (or a lookup that failed) must not stop the sending.
      LOG.warn("could not reconcile held intents: {}", e.toString());
    }
    if (Thread.currentThread().isInterrupted()) {
      return report(new RelayPass(0, 0, 0, 0, expired, 0, reconciled, 0, 0));
    }
    Instant asked = clock.instant(); // the leases were granted no earlier than this
    RelayTable.Claim claim = leases.claimReporting(owner, leaseFor, maxAge, tenants, batch);
    for (RelayTable.Tampered t : claim.held()) {
      LOG.warn(
          "intent {} held as TAMPERED, not sent: {}",
          ColumnText.printable(t.intentId()),
          ColumnText.printable(t.problem()));
    }
    List<LeasedIntent> claimed = claim.claimed();
    Pass pass = new Pass();
    List<LeasedIntent> unsent = List.of();
    if (concurrency == 1 || claimed.size() == 1) {
      for (int i = 0; i < claimed.size(); i++) {
        LeasedIntent intent = claimed.get(i);
        if (Thread.currentThread().isInterrupted()) {
          unsent = claimed.subList(i, claimed.size());
          break;
        }
        pass.add(sendOne(new Held(intent.lease(), asked), intent));
        pass.recordIfLeasesAgeing();
      }
    } else {
      sendConcurrently(claimed, asked, pass);
    }
    // The outcomes are recorded, and unsent intents given back, even when interrupted (the
    // database's driver or pool may refuse an interrupted thread); the interrupt is kept.
    boolean interrupted = Thread.interrupted();
    try {
      if (!unsent.isEmpty()) {
        giveBack(unsent, pass);
      }
      pass.record();
    } finally {
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
    }
    int[] counts = pass.counts;
    return report(
        new RelayPass(
            claimed.size(),
            counts[Ending.SUCCEEDED.ordinal()],
            counts[Ending.REJECTED.ordinal()],
            counts[Ending.RETRY.ordinal()],
            expired + counts[Ending.EXPIRED.ordinal()],
            counts[Ending.LOST.ordinal()],
            reconciled,
            claim.held().size() + counts[Ending.HELD.ordinal()],
            counts[Ending.UNSETTLED.ordinal()]));
  }

  private RelayPass report(RelayPass done) {
    for (RelayObserver o : observers) {
      try {
        o.passed(done);
      } catch (RuntimeException | Error e) {
        LOG.warn("a relay observer failed: {}", e.toString());
      }
    }
    return done;
  }

  /**
   * Gives back claimed intents that were not sent (the pass's thread was interrupted): due again at
   * once, their claim not counted.
   */
  private void giveBack(List<LeasedIntent> unsent, Pass pass) {
    LOG.warn("relay {} interrupted: {} claimed intents not sent", owner, unsent.size());
    for (LeasedIntent intent : unsent) {
      boolean back;
      try {
        back = leases.giveBack(intent.lease(), "not sent: the relay's thread was interrupted");
      } catch (RuntimeException e) {
        back = false; // the lease runs out and a later pass takes it over
      }
      pass.counts[(back ? Ending.RETRY : Ending.LOST).ordinal()]++;
    }
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

  /**
   * Sends one intent; never throws. What a send throws, an {@link Error} too, leaves the intent
   * leased: its lease runs out and a later pass takes it over (a claim that counts toward {@code
   * maxClaims}); it is never recorded as failed without an answer that proves it.
   */
  private Sent sendOne(Held held, LeasedIntent intent) {
    try {
      return send(held, intent);
    } catch (RuntimeException | Error e) {
      // The database failed, a bug, or the send threw an Error: the relay goes on.
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
      try {
        o.answered(result, error);
      } catch (RuntimeException | Error e) {
        LOG.warn("a relay observer failed: {}", e.toString());
      }
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

  private boolean hold(Lease lease, HoldReason reason, String note) {
    return leases.hold(lease, RelayCodes.Hold.valueOf(reason.name()), note);
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
}
