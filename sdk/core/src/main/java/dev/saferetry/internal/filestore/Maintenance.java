package dev.saferetry.internal.filestore;

import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The store's background work — preallocating and compacting the log — on one daemon thread that
 * exists only while there is work. File-level jobs run one at a time: the background ones and those
 * callers run themselves (a purge, a rewrite after a failed sync) all hold {@link #jobs()}. Closing
 * gives a running job up at its next step and waits for it.
 *
 * <p>Thread-safe.
 */
final class Maintenance implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(Maintenance.class);

  private final ReentrantLock jobs = new ReentrantLock();
  private final ThreadPoolExecutor executor;
  private final Object idle = new Object();
  private int outstanding;
  private volatile boolean closing;

  Maintenance() {
    executor =
        new ThreadPoolExecutor(
            1,
            1,
            5,
            TimeUnit.SECONDS,
            new LinkedBlockingQueue<>(),
            task -> {
              Thread thread = new Thread(task, "saferetry-key-store");
              thread.setDaemon(true);
              return thread;
            });
    executor.allowCoreThreadTimeOut(true);
  }

  /** The lock every file-level job holds while it runs. */
  ReentrantLock jobs() {
    return jobs;
  }

  /** Whether the store is closing: jobs give up. */
  boolean closing() {
    return closing;
  }

  /** Runs {@code job} in the background, after the jobs before it, unless the store closes. */
  void submit(Runnable job) {
    synchronized (idle) {
      if (closing) {
        return;
      }
      outstanding++;
    }
    try {
      executor.execute(() -> runJob(job));
    } catch (RejectedExecutionException e) {
      done();
    }
  }

  private void runJob(Runnable job) {
    try {
      jobs.lock();
      try {
        if (!closing) {
          job.run();
        }
      } finally {
        jobs.unlock();
      }
    } catch (RuntimeException e) {
      LOG.warn("Key store background work failed ({}); it is tried again later", e.toString());
    } finally {
      done();
    }
  }

  private void done() {
    synchronized (idle) {
      outstanding--;
      idle.notifyAll();
    }
  }

  /** Waits until no background job is queued or running. */
  void awaitIdle() {
    synchronized (idle) {
      boolean interrupted = false;
      while (outstanding > 0) {
        try {
          idle.wait();
        } catch (InterruptedException e) {
          interrupted = true;
        }
      }
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
    }
  }

  /** Stops taking jobs, gives the running one up and waits for it to end. */
  @Override
  public void close() {
    synchronized (idle) {
      closing = true;
    }
    executor.shutdown();
    awaitIdle();
  }
}
