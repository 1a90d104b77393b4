package dev.saferetry.jdbc.outbox;

import dev.saferetry.Operation;
import dev.saferetry.Reconciler;
import dev.saferetry.SafeRetryClient;
import dev.saferetry.jdbc.internal.ColumnText;
import dev.saferetry.jdbc.internal.keystore.KeyStoreDatabase;
import dev.saferetry.jdbc.keystore.JdbcKeyStore;
import dev.saferetry.jdbc.keystore.JdbcKeyStoreBuilder;
import dev.saferetry.resilience.Sleeper;
import java.time.Clock;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Options of an {@link OutboxRelay}; every setter names its default.
 *
 * <p>Builders are not thread-safe; the relays they build are.
 */
public final class OutboxRelayBuilder {
  /** The default of {@link #maxClaims(int)}. */
  static final int DEFAULT_MAX_CLAIMS = 20;

  /** The default of {@link #reconcileBudget(int)}. */
  static final int DEFAULT_RECONCILE_BUDGET = 50;

  /**
   * What a lease must outlast beyond the deadline of its client's calls: the time to record the
   * outcome of a call that ended at its deadline.
   */
  private static final int LEASE_MARGIN_SECONDS = 5;

  static final Duration LEASE_MARGIN = Duration.ofSeconds(LEASE_MARGIN_SECONDS);

  JdbcKeyStore store;
  final Map<String, SafeRetryClient> clients = new HashMap<>();
  final Map<String, Reconciler> reconcilers = new HashMap<>();
  String owner = "relay-" + Long.toHexString(ThreadLocalRandom.current().nextLong() >>> 16);
  Duration leaseFor = Duration.ofMinutes(2);
  int batchSize = 64;
  int concurrency = 4;
  Duration overdueEvery = Duration.ofSeconds(30);
  Duration backoff = Duration.ofSeconds(1);
  Duration maxBackoff = Duration.ofMinutes(5);
  Duration pollInterval = Duration.ofMillis(250);
  int maxClaims = DEFAULT_MAX_CLAIMS;
  int reconcileBudget = DEFAULT_RECONCILE_BUDGET;
  Clock clock = Clock.systemUTC();
  Sleeper sleeper = Sleeper.system();

  OutboxRelayBuilder() {}

  /** The settings a relay's pass reads, fixed now. */
  RelayConfig config() {
    return new RelayConfig(
        store,
        clients,
        owner,
        leaseFor,
        batchSize,
        concurrency,
        overdueEvery,
        backoff,
        maxBackoff,
        maxClaims,
        clock);
  }

  /** A builder holding the same settings. */
  OutboxRelayBuilder copy() {
    OutboxRelayBuilder b = new OutboxRelayBuilder();
    b.store = store;
    b.clients.putAll(clients);
    b.reconcilers.putAll(reconcilers);
    b.owner = owner;
    b.leaseFor = leaseFor;
    b.batchSize = batchSize;
    b.concurrency = concurrency;
    b.overdueEvery = overdueEvery;
    b.reconcileBudget = reconcileBudget;
    b.backoff = backoff;
    b.maxBackoff = maxBackoff;
    b.pollInterval = pollInterval;
    b.maxClaims = maxClaims;
    b.clock = clock;
    b.sleeper = sleeper;
    return b;
  }

  /**
   * Sets the key store whose outbox the relay works. Required.
   *
   * @param store the key store
   * @return this builder
   */
  public OutboxRelayBuilder store(JdbcKeyStore store) {
    this.store = Objects.requireNonNull(store, "store");
    return this;
  }

  /**
   * Adds the client that sends the intents of its tenant (one client per tenant; the last one set
   * for a tenant wins). At least one is required. Intents of a tenant without a client are put back
   * for later with a note.
   *
   * @param client the client
   * @return this builder
   */
  public OutboxRelayBuilder client(SafeRetryClient client) {
    Objects.requireNonNull(client, "client");
    clients.put(client.tenant(), client);
    return this;
  }

  /**
   * The reconciler of an operation's held intents (see {@link OutboxRelay}). Default: none.
   *
   * @param op the operation, whose name is its intents' scope
   * @param reconciler the lookup
   * @return this builder
   */
  public OutboxRelayBuilder reconciler(Operation<?, ?> op, Reconciler reconciler) {
    reconcilers.put(op.name(), Objects.requireNonNull(reconciler, "reconciler"));
    return this;
  }

  /**
   * Who holds the leases, as shown in the table (an instance name). Default {@code relay-} and a
   * random suffix.
   *
   * @param owner 1..128 characters
   * @return this builder
   */
  public OutboxRelayBuilder owner(String owner) {
    Objects.requireNonNull(owner, "owner");
    if (owner.isBlank() || owner.length() > 128) {
      throw new IllegalArgumentException("owner must be 1..128 characters");
    }
    this.owner = owner;
    return this;
  }

  /**
   * How long a lease lasts, by the database's clock; it is renewed before an attempt once half of
   * it has elapsed. It must outlast the longest call of every client of the relay — the deadline of
   * its {@link SafeRetryClient#retryPolicy()} plus 5 s — or {@link #build()} refuses it: a lease
   * that ends while a call is on the wire lets another relay, or an operator's action, act on an
   * intent whose charge may still land. Default 2 minutes.
   *
   * @param leaseFor a positive duration
   * @return this builder
   */
  public OutboxRelayBuilder leaseFor(Duration leaseFor) {
    this.leaseFor = positive("leaseFor", leaseFor);
    return this;
  }

  /**
   * How many intents one pass claims (in one statement on PostgreSQL) and records together. Default
   * 64.
   *
   * @param batchSize 1..1000
   * @return this builder
   */
  public OutboxRelayBuilder batchSize(int batchSize) {
    if (batchSize < 1 || batchSize > 1000) {
      throw new IllegalArgumentException("batchSize must be 1..1000");
    }
    this.batchSize = batchSize;
    return this;
  }

  /**
   * How many of a pass's intents are sent at once, each on a sender thread of the relay's own (a
   * pass of one intent is sent on the pass's thread; 1 sends a pass's intents one after another on
   * it). Every send still asks its lease before each attempt and renews it as it would alone. The
   * relay's client shares its HTTP connection pool among them, so more than its idle connections
   * (OkHttp's default keeps 5) opens connections it then closes. Default 4.
   *
   * @param concurrency 1..256
   * @return this builder
   */
  public OutboxRelayBuilder concurrency(int concurrency) {
    if (concurrency < 1 || concurrency > 256) {
      throw new IllegalArgumentException("concurrency must be 1..256");
    }
    this.concurrency = concurrency;
    return this;
  }

  /**
   * How often, at most, a pass first holds intents that became overdue ({@link HoldReason#EXPIRED}:
   * past their key's retention or older than the table's {@link JdbcOutbox#maxAge()}); the scan
   * reads every queued row, so it is not run on every pass. An overdue intent is never claimed
   * meanwhile: the claim passes over it until the scan holds it. The first pass of a relay always
   * scans; the relay's {@link #clock} measures the interval. Default 30 s.
   *
   * @param overdueEvery a positive duration
   * @return this builder
   */
  public OutboxRelayBuilder overdueEvery(Duration overdueEvery) {
    this.overdueEvery = positive("overdueEvery", overdueEvery);
    return this;
  }

  /**
   * The wait before an intent whose send ended without a definitive answer is due again: {@code
   * initial} after the first claim, doubling per claim up to {@code max}. Default 1 s to 5 min.
   *
   * @param initial the first wait
   * @param max the longest wait
   * @return this builder
   */
  public OutboxRelayBuilder backoff(Duration initial, Duration max) {
    this.backoff = positive("initial", initial);
    this.maxBackoff = positive("max", max);
    if (max.compareTo(initial) < 0) {
      throw new IllegalArgumentException("max must not be shorter than initial");
    }
    return this;
  }

  /**
   * How many times an intent may be claimed without a definitive answer before it is <b>parked</b>:
   * held as {@link HoldReason#TOO_MANY_ATTEMPTS} for an operator ({@link OutboxAdmin}), never sent
   * again on its own and, with an ordering key, keeping the later intents of its key waiting. Each
   * claim is one send through the client, with the client's own retries; a claim whose relay died
   * counts too, so an intent that keeps killing relays is parked before it is sent again. Default
   * {@value #DEFAULT_MAX_CLAIMS}: with the default backoff (1 s doubling to 5 min) about an hour of
   * a provider's outage.
   *
   * @param maxClaims 1..1000
   * @return this builder
   */
  public OutboxRelayBuilder maxClaims(int maxClaims) {
    if (maxClaims < 1 || maxClaims > 1000) {
      throw new IllegalArgumentException("maxClaims must be 1..1000");
    }
    this.maxClaims = maxClaims;
    return this;
  }

  /**
   * How many held intents one pass reconciles at most (see {@link OutboxRelay}): a pass reads a
   * page of that many held intents' records, never their stored requests, and the next pass goes on
   * after it, so that however many intents are held a pass costs the same and each is reconciled in
   * turn. Only with a {@link #reconciler}. Default {@value #DEFAULT_RECONCILE_BUDGET}.
   *
   * @param reconcileBudget 1..1000
   * @return this builder
   */
  public OutboxRelayBuilder reconcileBudget(int reconcileBudget) {
    if (reconcileBudget < 1 || reconcileBudget > 1000) {
      throw new IllegalArgumentException("reconcileBudget must be 1..1000");
    }
    this.reconcileBudget = reconcileBudget;
    return this;
  }

  /**
   * How long {@link OutboxRelay#start()} waits after a pass that found nothing due (after a pass
   * that claimed intents, the next one starts at once). Default 250 ms.
   *
   * @param pollInterval a positive duration
   * @return this builder
   */
  public OutboxRelayBuilder pollInterval(Duration pollInterval) {
    this.pollInterval = positive("pollInterval", pollInterval);
    return this;
  }

  /**
   * The clock the relay measures its own elapsed time with: when half of a lease has gone by since
   * it was granted or renewed (time to renew it), and how long since a held intent was last
   * reconciled. Leases, due times, backoffs and ages are never judged by it but by the database's
   * clock, which every relay reads alike (see {@link OutboxRelay}). Default the system UTC clock.
   *
   * @param clock the clock
   * @return this builder
   */
  public OutboxRelayBuilder clock(Clock clock) {
    this.clock = Objects.requireNonNull(clock, "clock");
    return this;
  }

  /**
   * How {@link OutboxRelay#start()} waits between idle passes. Default {@link Sleeper#system()}.
   *
   * @param sleeper the sleeper
   * @return this builder
   */
  public OutboxRelayBuilder sleeper(Sleeper sleeper) {
    this.sleeper = Objects.requireNonNull(sleeper, "sleeper");
    return this;
  }

  /**
   * Builds the relay; it does nothing until {@link OutboxRelay#runOnce()} or {@link
   * OutboxRelay#start()}.
   *
   * @return the relay
   * @throws NullPointerException if no store was set
   * @throws IllegalArgumentException if the lease ({@link #leaseFor}) is shorter than a client's
   *     longest call: its retry policy's deadline plus 5 s (the message names the lease, the
   *     client's tenant and its deadline)
   * @throws IllegalStateException if no client was added, or the store has no {@link
   *     JdbcKeyStoreBuilder#outboxSealKey}: without it no row's seal can be verified, so the relay
   *     could send nothing
   */
  public OutboxRelay build() {
    Objects.requireNonNull(store, "store");
    if (clients.isEmpty()) {
      throw new IllegalStateException("client: a relay needs at least one client to send with");
    }
    if (!KeyStoreDatabase.of(store).canSealRows()) {
      throw new IllegalStateException(
          "the store has no outbox seal key (JdbcKeyStoreBuilder.outboxSealKey): the relay could"
              + " verify no row, so it is not built");
    }
    for (SafeRetryClient client : clients.values()) {
      Duration deadline = client.retryPolicy().deadline();
      Duration longest = deadline.plus(LEASE_MARGIN);
      if (leaseFor.compareTo(longest) < 0) {
        throw new IllegalArgumentException(
            "leaseFor "
                + leaseFor
                + " is shorter than the longest call of the client of tenant "
                + ColumnText.printable(client.tenant())
                + ": its deadline "
                + deadline
                + " plus "
                + LEASE_MARGIN
                + "; lease for at least "
                + longest
                + " or give the client a shorter deadline");
      }
    }
    return new OutboxRelay(this);
  }

  private static Duration positive(String name, Duration d) {
    Objects.requireNonNull(d, name);
    if (d.isNegative() || d.isZero()) {
      throw new IllegalArgumentException(name + " must be positive");
    }
    return d;
  }
}
