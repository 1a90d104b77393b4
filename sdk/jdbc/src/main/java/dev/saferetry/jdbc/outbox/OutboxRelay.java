package dev.saferetry.jdbc.outbox;

import dev.saferetry.idempotency.KeyStoreException;
import dev.saferetry.jdbc.internal.outbox.RelayLeases;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * Sends the intents of a {@link JdbcOutbox} through the client, from any number of instances at
 * once: each pass claims a batch of due intents of its clients' tenants under leases, sends each
 * with its stored key and exact stored bytes through the client's own call path (its retries,
 * breaker, budget and listener), at most {@link OutboxRelayBuilder#concurrency} at a time, and
 * records their outcomes together, each fenced by its own lease.
 *
 * <pre>{@code
 * OutboxRelay relay = OutboxRelay.builder().store(store).client(client).owner("orders-7f9c").build();
 * relay.start(); // a daemon thread; relay.stop() on shutdown
 * }</pre>
 *
 * <p>A success completes an intent; any other ending makes it due again after a backoff, or holds
 * it for a person with its {@link HoldReason} — never retried silently, never sent with a second
 * key, never recorded as failed without an answer that proves it. Every lease decision is made at
 * the database's clock; the relay's own {@link OutboxRelayBuilder#clock} only measures its elapsed
 * time. What a send, a reconciler or an observer throws does not end its thread ({@link
 * #isRunning()}, {@link #endedBy()}). The rules — what each ending records, leases, fencing and
 * time, held intents and their reconciliation — are in {@code docs/fleet-and-outbox.md} ("The
 * relay", "Leases, fencing and time").
 *
 * <p>This class is thread-safe; {@link #runOnce()} may be called from any thread, and instances on
 * any number of machines may work one table.
 */
public final class OutboxRelay implements AutoCloseable {
  private final String owner;

  /** Told of every answer and pass (see {@link SafeRetryMeters}). */
  private final CopyOnWriteArrayList<RelayObserver> observers = new CopyOnWriteArrayList<>();

  private final OutboxRelayBuilder settings;
  private final RelaySenders senders;
  private final HeldReconciliation held;
  private final RelayPassRun pass;
  private final RelayLoop loop;
  private final Duration leaseFor;

  OutboxRelay(OutboxRelayBuilder b) {
    this.settings = b.copy();
    this.owner = b.owner;
    this.leaseFor = b.leaseFor;
    this.senders = new RelaySenders(b.concurrency, owner);
    this.held =
        new HeldReconciliation(
            RelayLeases.of(b.store),
            Map.copyOf(b.clients),
            Map.copyOf(b.reconcilers),
            b.reconcileBudget,
            b.maxBackoff,
            b.clock);
    this.pass = new RelayPassRun(b.config(), senders, held, observers);
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
