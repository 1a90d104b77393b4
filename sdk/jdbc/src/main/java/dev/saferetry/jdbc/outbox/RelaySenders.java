package dev.saferetry.jdbc.outbox;

import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * The sender threads of one {@link OutboxRelay}: daemon threads started when first needed, at most
 * the relay's concurrency, each ending after 30 s idle. A pass hands them its claimed intents and
 * waits for all of them.
 *
 * <p>Thread-safe.
 */
final class RelaySenders {
  /** How often a waiting pass is called back while its sends run. */
  private static final long TICK_MILLIS = 250;

  private final int concurrency;
  private final String owner;
  private ExecutorService pool; // guarded by this

  RelaySenders(int concurrency, String owner) {
    this.concurrency = concurrency;
    this.owner = owner;
  }

  /**
   * Runs {@code work} on each of {@code items} on the sender threads and hands each result to
   * {@code onResult} on the calling thread as it arrives, calling {@code tick} there at least every
   * {@value #TICK_MILLIS} ms while it waits. Returns when every item's result was handed over, even
   * when interrupted (the interrupt is kept). An item whose work ends in an {@link Error} yields
   * {@code failed}; one the threads refuse (shut down meanwhile) is worked on the calling thread.
   */
  <I, R> void runAll(
      List<I> items, Function<I, R> work, R failed, Consumer<R> onResult, Runnable tick) {
    BlockingQueue<R> done = new LinkedBlockingQueue<>();
    ExecutorService threads = threads();
    int left = 0;
    for (I item : items) {
      try {
        threads.execute(
            () -> {
              R result = failed;
              try {
                result = work.apply(item);
              } finally {
                done.add(result);
              }
            });
        left++;
      } catch (RejectedExecutionException stopped) {
        onResult.accept(work.apply(item));
      }
    }
    boolean interrupted = false;
    while (left > 0) {
      R result;
      try {
        result = done.poll(TICK_MILLIS, TimeUnit.MILLISECONDS);
      } catch (InterruptedException e) {
        interrupted = true;
        continue;
      }
      if (result != null) {
        onResult.accept(result);
        left--;
      }
      tick.run();
    }
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
  }

  private synchronized ExecutorService threads() {
    if (pool == null) {
      AtomicInteger n = new AtomicInteger();
      ThreadPoolExecutor p =
          new ThreadPoolExecutor(
              concurrency,
              concurrency,
              30,
              TimeUnit.SECONDS,
              new LinkedBlockingQueue<>(),
              r -> {
                Thread t =
                    new Thread(r, "saferetry-relay-" + owner + "-send-" + n.incrementAndGet());
                t.setDaemon(true);
                return t;
              });
      p.allowCoreThreadTimeOut(true);
      pool = p;
    }
    return pool;
  }

  /**
   * Shuts the threads down; a pass still running elsewhere finishes its sends (they are queued
   * already). A later pass starts new ones.
   */
  void shutdown() {
    ExecutorService p;
    synchronized (this) {
      p = pool;
      pool = null;
    }
    if (p != null) {
      p.shutdown();
    }
  }
}
