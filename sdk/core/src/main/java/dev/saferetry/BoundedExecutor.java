package dev.saferetry;

import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.AbstractExecutorService;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Runs at most {@code limit} tasks at once, each on a new thread from {@code threads} (meant for
 * virtual threads, which are not pooled); further tasks wait in FIFO order, holding no thread, and
 * a finishing thread takes the next waiting task. Thread-safe.
 */
final class BoundedExecutor extends AbstractExecutorService {
  private final int limit;
  private final ThreadFactory threads;
  private final Queue<Runnable> waiting = new ConcurrentLinkedQueue<>();
  private final AtomicInteger running = new AtomicInteger();
  private final CountDownLatch terminated = new CountDownLatch(1);
  private volatile boolean shutdown;

  BoundedExecutor(int limit, ThreadFactory threads) {
    this.limit = limit;
    this.threads = threads;
  }

  @Override
  public void execute(Runnable task) {
    if (shutdown) {
      throw new RejectedExecutionException("the client is closed");
    }
    waiting.add(task);
    startIfFree();
  }

  // Starts a thread for a waiting task if fewer than limit run.
  private void startIfFree() {
    while (!waiting.isEmpty()) {
      int now = running.get();
      if (now >= limit) {
        return;
      }
      if (running.compareAndSet(now, now + 1)) {
        threads.newThread(this::drain).start();
        return;
      }
    }
  }

  // Runs waiting tasks until there are none, then gives its slot back.
  private void drain() {
    while (true) {
      Runnable task = waiting.poll();
      if (task == null) {
        running.decrementAndGet();
        // A task queued between the poll and the decrement must not be stranded.
        if (!waiting.isEmpty()) {
          startIfFree();
        } else if (shutdown && running.get() == 0) {
          terminated.countDown();
        }
        return;
      }
      try {
        task.run();
      } catch (RuntimeException | Error e) {
        Thread t = Thread.currentThread();
        t.getUncaughtExceptionHandler().uncaughtException(t, e);
      }
    }
  }

  @Override
  public void shutdown() {
    shutdown = true;
    if (running.get() == 0) {
      terminated.countDown();
    }
  }

  @Override
  public List<Runnable> shutdownNow() {
    shutdown();
    List<Runnable> left = new ArrayList<>();
    for (Runnable r; (r = waiting.poll()) != null; ) {
      left.add(r);
    }
    return left;
  }

  @Override
  public boolean isShutdown() {
    return shutdown;
  }

  @Override
  public boolean isTerminated() {
    return shutdown && terminated.getCount() == 0;
  }

  @Override
  public boolean awaitTermination(long timeout, TimeUnit unit) throws InterruptedException {
    return terminated.await(timeout, unit);
  }
}
