package dev.saferetry.jdbc.outbox;

import dev.saferetry.resilience.Sleeper;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The thread of {@link OutboxRelay#start()}: passes one after another, a poll interval apart when
 * idle. A pass that throws (an {@link Error} too) is logged and the next one runs; an interrupt
 * ends the thread at once, before another claim. A thread that ended other than by {@link #stop()}
 * is reported (logged, told to the observers, {@link #endedBy()}) and {@link #start()} starts a new
 * one.
 */
final class RelayLoop {
  private static final Logger LOG = LoggerFactory.getLogger("dev.saferetry.relay");

  private final String owner;
  private final Supplier<RelayPass> pass;
  private final Sleeper sleeper;
  private final Duration pollInterval;
  private final List<RelayObserver> observers;
  private final Object lifecycle = new Object();

  private Thread worker;
  private volatile boolean stopping;
  private volatile boolean idle;
  private volatile Throwable endedBy;

  RelayLoop(
      String owner,
      Supplier<RelayPass> pass,
      Sleeper sleeper,
      Duration pollInterval,
      List<RelayObserver> observers) {
    this.owner = owner;
    this.pass = pass;
    this.sleeper = sleeper;
    this.pollInterval = pollInterval;
    this.observers = observers;
  }

  void start() {
    synchronized (lifecycle) {
      if (worker != null && worker.isAlive()) {
        throw new IllegalStateException("the relay is running");
      }
      stopping = false;
      endedBy = null;
      Thread t = new Thread(this::run, "saferetry-relay-" + owner);
      t.setDaemon(true);
      worker = t;
      t.start();
    }
  }

  boolean isRunning() {
    synchronized (lifecycle) {
      return worker != null && worker.isAlive() && !stopping;
    }
  }

  Optional<Throwable> endedBy() {
    return Optional.ofNullable(endedBy);
  }

  private void run() {
    Throwable why = null;
    try {
      why = loop();
    } catch (Throwable t) { // what escaped the loop itself (the sleeper): reported below
      why = t;
    } finally {
      if (!stopping) {
        ended(why != null ? why : new IllegalStateException("the relay's thread ended"));
      }
    }
  }

  /** Runs passes until stopped or interrupted; returns why it ended (null: stopped). */
  private Throwable loop() {
    while (!stopping) {
      if (Thread.currentThread().isInterrupted()) {
        return new InterruptedException("the relay's thread was interrupted");
      }
      RelayPass done = null;
      try {
        done = pass.get();
      } catch (RuntimeException | Error e) {
        LOG.warn("relay pass failed: {}", e.toString());
      }
      if (done == null || done.claimed() == 0) {
        idle = true;
        try {
          if (!stopping) {
            sleeper.sleep(pollInterval);
          }
        } catch (InterruptedException e) {
          return stopping ? null : e;
        } finally {
          idle = false;
        }
      }
    }
    return null;
  }

  private void ended(Throwable why) {
    endedBy = why;
    LOG.warn("relay {} stopped: its thread ended: {}", owner, why.toString());
    for (RelayObserver o : observers) {
      try {
        o.ended(why);
      } catch (RuntimeException | Error e) {
        LOG.warn("a relay observer failed: {}", e.toString());
      }
    }
  }

  /** Stops the passes: the pass running finishes, then the thread ends. Waits for it. */
  void stop() throws InterruptedException {
    Thread t;
    synchronized (lifecycle) {
      t = worker;
      worker = null;
      stopping = true;
    }
    if (t != null) {
      if (idle) {
        t.interrupt();
      }
      t.join();
    }
  }
}
