package dev.saferetry.internal.jdbc;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Function;

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
 */
final class Combiner<I, O> {
  private static final class Slot<I, O> {
    final I item;
    final Thread waiter;
    boolean taken; // guarded by the lock
    O result; // written before done
    RuntimeException failure; // written before done
    volatile boolean done;

    Slot(I item, Thread waiter) {
      this.item = item;
      this.waiter = waiter;
    }
  }

  private final int maxBatch;
  private final int writers;
  private final Function<List<I>, List<O>> write;
  private final ArrayDeque<Slot<I, O>> queue = new ArrayDeque<>();
  private final ReentrantLock lock = new ReentrantLock();
  private int busy; // guarded by the lock

  /**
   * @param maxBatch the most items one write takes
   * @param writers how many writes may run at once
   * @param write writes a batch and returns one result per item, in order; an exception fails every
   *     item of the batch
   */
  public Combiner(int maxBatch, int writers, Function<List<I>, List<O>> write) {
    this.maxBatch = maxBatch;
    this.writers = writers;
    this.write = write;
  }

  /** Writes {@code item}, alone or with others, and returns its result. */
  public O submit(I item) {
    boolean interrupted = false;
    Slot<I, O> mine = new Slot<>(item, Thread.currentThread());
    lock.lock();
    try {
      queue.add(mine);
    } finally {
      lock.unlock();
    }
    while (!mine.done) {
      List<Slot<I, O>> batch = null;
      lock.lock();
      try {
        if (!mine.done && !mine.taken && busy < writers) {
          busy++;
          batch = take();
          wakeNextWriter();
        }
      } finally {
        lock.unlock();
      }
      if (batch == null) {
        // A wake-up that arrived while this thread waited for the lock was spent there: look at
        // the slot again before parking. One that arrives from here on is kept for park.
        if (!mine.done) {
          LockSupport.park(this); // woken when written or when a slot is ours; may return early
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
    batch.forEach(s -> items.add(s.item));
    List<O> results = null;
    RuntimeException failure = null;
    try {
      results = write.apply(items);
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
