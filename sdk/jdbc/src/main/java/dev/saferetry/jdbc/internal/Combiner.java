package dev.saferetry.jdbc.internal;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.BiFunction;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * Group commit for database writes: concurrent callers' items are written together. A caller that
 * finds a free writer slot writes at once with whatever is queued (alone, when it is alone: a
 * single caller pays exactly one write per item and never waits for a timer); callers arriving
 * while every slot is busy queue up, and the first of them to find a free slot writes everything
 * queued (up to {@code maxBatch}) for all of them. Every caller returns only after its own item was
 * written.
 *
 * <p>More than one writer slot keeps one slow batch (one that waits for a row another transaction
 * holds, say) from holding up every other caller.
 *
 * <p>A waiting caller parks its own thread ({@link LockSupport}), rather than waiting on a monitor
 * or a lock's condition: a caller on a virtual thread never pins its carrier, and the callers of a
 * finished batch are woken directly, all at once, without taking the lock again to return (a
 * condition would wake them one after another, each taking and releasing the lock in turn). A
 * caller is woken only when there is something for it to do: its item was written, or it is first
 * in the queue and a writer slot is free. Thread-safe.
 *
 * <p>Each caller brings its deadline. A batch's waits are bounded by the earliest deadline among
 * its callers (the caller that writes is one of them, and its thread is the one that waits), so a
 * batch ends no later than the first of its callers must (at least a second later: see {@link
 * Deadline}); a caller still waiting for a free writer when its deadline passes leaves the queue,
 * nothing of its item written.
 */
public final class Combiner<I, O> {
  private static final class Slot<I, O> {
    final I item;
    final Deadline deadline;
    final Thread waiter;
    boolean taken; // guarded by the lock
    O result; // written before done
    RuntimeException failure; // written before done
    volatile boolean done;

    Slot(I item, Deadline deadline, Thread waiter) {
      this.item = item;
      this.deadline = deadline;
      this.waiter = waiter;
    }
  }

  private final int maxBatch;
  private final int writers;
  private final BiFunction<List<I>, Deadline, List<O>> write;
  private final Supplier<RuntimeException> queuedTooLong;
  private final ArrayDeque<Slot<I, O>> queue = new ArrayDeque<>();
  private final ReentrantLock lock = new ReentrantLock();
  private int busy; // guarded by the lock

  /**
   * @param maxBatch the most items one write takes
   * @param writers how many writes may run at once
   * @param write writes a batch within a deadline and returns one result per item, in order; an
   *     exception fails every item of the batch
   * @param queuedTooLong the failure of a caller whose deadline passed before a write took its item
   */
  public Combiner(
      int maxBatch,
      int writers,
      BiFunction<List<I>, Deadline, List<O>> write,
      Supplier<RuntimeException> queuedTooLong) {
    this.maxBatch = maxBatch;
    this.writers = writers;
    this.write = write;
    this.queuedTooLong = queuedTooLong;
  }

  /** A combiner whose callers have no deadlines. */
  public Combiner(int maxBatch, int writers, Function<List<I>, List<O>> write) {
    this(
        maxBatch,
        writers,
        (items, deadline) -> write.apply(items),
        () -> new IllegalStateException("no deadline was set"));
  }

  /** Writes {@code item}, alone or with others, and returns its result. */
  public O submit(I item) {
    return submit(item, Deadline.NONE);
  }

  /**
   * Writes {@code item}, alone or with others, and returns its result; gives up (with the {@code
   * queuedTooLong} failure) if {@code deadline} passes before a write took the item.
   */
  public O submit(I item, Deadline deadline) {
    boolean interrupted = false;
    Slot<I, O> mine = new Slot<>(item, deadline, Thread.currentThread());
    lock.lock();
    try {
      queue.add(mine);
    } finally {
      lock.unlock();
    }
    while (!mine.done) {
      List<Slot<I, O>> batch = null;
      boolean gaveUp = false;
      lock.lock();
      try {
        if (!mine.done && !mine.taken) {
          if (busy < writers) {
            busy++;
            batch = take();
            wakeNextWriter();
          } else if (deadline.passed()) {
            queue.remove(mine); // no write has it: nothing of it is written
            gaveUp = true;
            wakeNextWriter();
          }
        }
      } finally {
        lock.unlock();
      }
      if (gaveUp) {
        if (interrupted) {
          Thread.currentThread().interrupt();
        }
        throw queuedTooLong.get();
      }
      if (batch == null) {
        // A wake-up that arrived while this thread waited for the lock was spent there: look at
        // the slot again before parking. One that arrives from here on is kept for park. Woken
        // when written, when a slot is ours, or at the deadline; may return early.
        if (!mine.done) {
          if (deadline.bounded() && !deadline.passed()) {
            LockSupport.parkNanos(this, deadline.nanosLeft());
          } else {
            LockSupport.park(this); // taken by a write, which its deadline bounds too
          }
          if (Thread.interrupted()) {
            interrupted = true; // the item may be in a write already: see it through
          }
        }
        continue;
      }
      writeBatch(batch);
      lock.lock();
      try {
        busy--;
        wakeNextWriter();
      } finally {
        lock.unlock();
      }
    }
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
    if (mine.failure != null) {
      throw mine.failure;
    }
    return mine.result;
  }

  /** Wakes the first queued caller if a writer slot is free for it. Called holding the lock. */
  private void wakeNextWriter() {
    Slot<I, O> next = queue.peek();
    if (next != null && busy < writers) {
      LockSupport.unpark(next.waiter);
    }
  }

  private List<Slot<I, O>> take() {
    List<Slot<I, O>> batch = new ArrayList<>();
    while (!queue.isEmpty() && batch.size() < maxBatch) {
      Slot<I, O> s = queue.poll();
      s.taken = true;
      batch.add(s);
    }
    return batch;
  }

  private void writeBatch(List<Slot<I, O>> batch) {
    List<I> items = new ArrayList<>(batch.size());
    Deadline earliest = Deadline.NONE;
    for (Slot<I, O> s : batch) {
      items.add(s.item);
      earliest = Deadline.earlier(earliest, s.deadline);
    }
    List<O> results = null;
    RuntimeException failure = null;
    try {
      results = write.apply(items, earliest);
    } catch (RuntimeException e) {
      failure = e;
    } catch (Error e) { // never leave the batch's other callers waiting
      failure = new IllegalStateException("writing a batch failed", e);
    }
    for (int i = 0; i < batch.size(); i++) {
      Slot<I, O> s = batch.get(i);
      s.failure = failure;
      s.result = results == null ? null : results.get(i);
      s.done = true;
      if (s.waiter != Thread.currentThread()) {
        LockSupport.unpark(s.waiter);
      }
    }
  }
}
