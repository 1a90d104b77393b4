package dev.saferetry.internal.jdbc;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * Group commit for database writes: concurrent callers' items are written together, one batch at a
 * time. A caller that finds no batch in flight writes at once, alone (so a single caller pays
 * exactly one write per item, with no added wait); callers arriving meanwhile queue up and the
 * first of them, once the batch in flight ends, writes everything queued (up to {@code maxBatch})
 * for all of them. Every caller returns only after its own item was written.
 *
 * <p>Thread-safe.
 */
public final class Combiner<I, O> {
  private static final class Slot<I, O> {
    final I item;
    O result;
    RuntimeException failure;
    boolean done;

    Slot(I item) {
      this.item = item;
    }
  }

  private final int maxBatch;
  private final Function<List<I>, List<O>> write;
  private final ArrayDeque<Slot<I, O>> queue = new ArrayDeque<>();
  private boolean writing;

  /**
   * @param write writes a batch and returns one result per item, in order; an exception fails every
   *     item of the batch
   */
  public Combiner(int maxBatch, Function<List<I>, List<O>> write) {
    this.maxBatch = maxBatch;
    this.write = write;
  }

  /** Writes {@code item}, alone or with others, and returns its result. */
  public O submit(I item) {
    Slot<I, O> mine = new Slot<>(item);
    List<Slot<I, O>> batch;
    boolean interrupted = false;
    synchronized (this) {
      queue.add(mine);
      while (writing && !mine.done) {
        try {
          wait();
        } catch (InterruptedException e) {
          interrupted = true; // the item may already be in a batch in flight: see it through
        }
      }
      batch = mine.done ? null : startBatch();
    }
    while (batch != null) {
      writeBatch(batch);
      synchronized (this) {
        batch = mine.done ? null : startBatch();
        if (batch == null) {
          writing = false;
        }
        notifyAll();
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

  private List<Slot<I, O>> startBatch() {
    writing = true;
    List<Slot<I, O>> batch = new ArrayList<>();
    while (!queue.isEmpty() && batch.size() < maxBatch) {
      batch.add(queue.poll());
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
    synchronized (this) {
      for (int i = 0; i < batch.size(); i++) {
        Slot<I, O> s = batch.get(i);
        s.failure = failure;
        s.result = results == null ? null : results.get(i);
        s.done = true;
      }
    }
  }
}
