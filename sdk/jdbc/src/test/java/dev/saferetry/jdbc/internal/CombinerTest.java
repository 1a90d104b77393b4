package dev.saferetry.jdbc.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** Group commit: alone at once, together while a batch is in flight, failures shared. */
class CombinerTest {
  private final List<List<Integer>> batches = new CopyOnWriteArrayList<>();
  private final CountDownLatch slowWriteStarted = new CountDownLatch(1);
  private final CountDownLatch releaseSlowWrite = new CountDownLatch(1);

  /** A combiner whose write of any batch holding item 0 waits until {@code releaseSlowWrite}. */
  private Combiner<Integer, String> slowOnZero(int maxBatch, int writers) {
    return new Combiner<>(
        maxBatch,
        writers,
        items -> {
          if (items.contains(0)) {
            slowWriteStarted.countDown();
            await(releaseSlowWrite);
          }
          return echo(items);
        });
  }

  @Test
  void aLoneCallerWritesAloneEveryTime() {
    Combiner<Integer, String> combiner = new Combiner<>(8, 1, this::echo);
    for (int i = 0; i < 3; i++) {
      assertThat(combiner.submit(i)).isEqualTo("r" + i);
    }
    assertThat(batches).containsExactly(List.of(0), List.of(1), List.of(2));
  }

  @Test
  void callersArrivingDuringAWriteShareTheNextOneAndEachGetsItsOwnResult() throws Exception {
    Combiner<Integer, String> combiner = slowOnZero(4, 1);
    ExecutorService threads = Executors.newFixedThreadPool(7);
    try {
      Future<String> first = threads.submit(() -> combiner.submit(0));
      await(slowWriteStarted);
      List<Thread> waiting = new CopyOnWriteArrayList<>();
      List<Future<String>> others = new ArrayList<>();
      for (int i = 1; i <= 6; i++) {
        int item = i;
        others.add(
            threads.submit(
                () -> {
                  waiting.add(Thread.currentThread());
                  return combiner.submit(item);
                }));
      }
      awaitAllWaiting(waiting, 6);
      releaseSlowWrite.countDown();

      assertThat(first.get(10, TimeUnit.SECONDS)).isEqualTo("r0");
      for (int i = 1; i <= 6; i++) {
        assertThat(others.get(i - 1).get(10, TimeUnit.SECONDS)).isEqualTo("r" + i);
      }
      assertThat(batches).hasSize(3); // [0], then 4 of the 6 waiting (the cap), then the last 2
      assertThat(batches.get(1)).hasSize(4);
      assertThat(batches.get(2)).hasSize(2);
    } finally {
      threads.shutdownNow();
    }
  }

  @Test
  void aFailedWriteFailsEveryCallerOfItsBatchAndTheNextBatchStillRuns() {
    Combiner<Integer, String> combiner =
        new Combiner<>(
            8,
            1,
            items -> {
              if (items.contains(13)) {
                throw new IllegalStateException("disk full");
              }
              return echo(items);
            });
    assertThatThrownBy(() -> combiner.submit(13)).hasMessage("disk full");
    assertThat(combiner.submit(14)).isEqualTo("r14");
  }

  @Test
  void aCallerInterruptedWhileQueuedStillGetsItsResultAndKeepsTheInterrupt() throws Exception {
    Combiner<Integer, String> combiner = slowOnZero(8, 1);
    ExecutorService threads = Executors.newFixedThreadPool(2);
    try {
      Future<String> first = threads.submit(() -> combiner.submit(0));
      await(slowWriteStarted);
      List<Thread> waiting = new CopyOnWriteArrayList<>();
      Future<Boolean> queued =
          threads.submit(
              () -> {
                waiting.add(Thread.currentThread());
                String result = combiner.submit(1);
                return result.equals("r1") && Thread.interrupted();
              });
      awaitAllWaiting(waiting, 1);
      waiting.get(0).interrupt();
      releaseSlowWrite.countDown();

      assertThat(first.get(10, TimeUnit.SECONDS)).isEqualTo("r0");
      assertThat(queued.get(10, TimeUnit.SECONDS)).isTrue();
      assertThat(batches).containsExactly(List.of(0), List.of(1));
    } finally {
      threads.shutdownNow();
    }
  }

  @Test
  void aSlowBatchDoesNotHoldUpCallersWhileAnotherWriterIsFree() throws Exception {
    // the slow write stands for one waiting for a row another transaction holds
    Combiner<Integer, String> combiner = slowOnZero(8, 2);
    ExecutorService threads = Executors.newFixedThreadPool(2);
    try {
      Future<String> slow = threads.submit(() -> combiner.submit(0));
      await(slowWriteStarted);

      assertThat(threads.submit(() -> combiner.submit(1)).get(10, TimeUnit.SECONDS))
          .isEqualTo("r1");
      assertThat(slow).isNotDone();
      releaseSlowWrite.countDown();
      assertThat(slow.get(10, TimeUnit.SECONDS)).isEqualTo("r0");
    } finally {
      threads.shutdownNow();
    }
  }

  @Test
  void manyCallersThroughFewSmallWritersEachGetTheirOwnResultAndNoneIsLeftWaiting()
      throws Exception {
    // callers are woken only when their batch ended or a writer slot is theirs, and a wake-up can
    // arrive while a caller waits for the lock: a lost one would leave a caller parked with its
    // item written (or with a free slot), and this test would time out
    Combiner<Integer, String> combiner = new Combiner<>(3, 2, this::echo);
    int threadCount = 32;
    int perThread = 2_000;
    ExecutorService threads = Executors.newFixedThreadPool(threadCount);
    try {
      List<Future<Boolean>> done = new ArrayList<>();
      for (int t = 0; t < threadCount; t++) {
        int first = t * perThread;
        done.add(
            threads.submit(
                () -> {
                  for (int i = first; i < first + perThread; i++) {
                    if (!combiner.submit(i).equals("r" + i)) {
                      return false;
                    }
                  }
                  return true;
                }));
      }
      for (Future<Boolean> f : done) {
        assertThat(f.get(30, TimeUnit.SECONDS)).isTrue();
      }
      List<Integer> written = batches.stream().flatMap(List::stream).sorted().toList();
      assertThat(written).hasSize(threadCount * perThread).doesNotHaveDuplicates();
      assertThat(batches).allSatisfy(b -> assertThat(b).hasSizeBetween(1, 3));
    } finally {
      threads.shutdownNow();
    }
  }

  /** Like {@link #slowOnZero}, recording the deadline each write is given. */
  private Combiner<Integer, String> slowOnZeroWithDeadlines(List<Deadline> given) {
    return new Combiner<>(
        8,
        1,
        (items, deadline) -> {
          given.add(deadline);
          if (items.contains(0)) {
            slowWriteStarted.countDown();
            await(releaseSlowWrite);
          }
          return echo(items);
        },
        () -> new IllegalStateException("queued past its deadline"));
  }

  @Test
  void aCallerStillQueuedAtItsDeadlineLeavesAndNothingOfItIsWritten() throws Exception {
    Combiner<Integer, String> combiner = slowOnZeroWithDeadlines(new CopyOnWriteArrayList<>());
    ExecutorService threads = Executors.newFixedThreadPool(1);
    try {
      Future<String> first = threads.submit(() -> combiner.submit(0));
      await(slowWriteStarted);

      assertThatThrownBy(
              () ->
                  assertTimeoutPreemptively(
                      Duration.ofSeconds(10),
                      () -> combiner.submit(1, Deadline.after(Duration.ofMillis(20)))))
          .hasMessage("queued past its deadline");
      releaseSlowWrite.countDown();
      assertThat(first.get(10, TimeUnit.SECONDS)).isEqualTo("r0");
      assertThat(combiner.submit(2)).isEqualTo("r2");
      assertThat(batches).containsExactly(List.of(0), List.of(2));
    } finally {
      threads.shutdownNow();
    }
  }

  @Test
  void aBatchWaitsNoLongerThanTheEarliestDeadlineAmongItsCallers() throws Exception {
    List<Deadline> given = new CopyOnWriteArrayList<>();
    Combiner<Integer, String> combiner = slowOnZeroWithDeadlines(given);
    ExecutorService threads = Executors.newFixedThreadPool(4);
    try {
      Future<String> first = threads.submit(() -> combiner.submit(0));
      await(slowWriteStarted);
      List<Thread> waiting = new CopyOnWriteArrayList<>();
      List<Future<String>> queued = new ArrayList<>();
      Deadline[] deadlines = {
        Deadline.after(Duration.ofHours(1)), Deadline.after(Duration.ofMinutes(30)), Deadline.NONE
      };
      for (int i = 0; i < deadlines.length; i++) {
        int item = i + 1;
        Deadline deadline = deadlines[i];
        queued.add(
            threads.submit(
                () -> {
                  waiting.add(Thread.currentThread());
                  return combiner.submit(item, deadline);
                }));
      }
      awaitAllWaiting(waiting, 3);
      releaseSlowWrite.countDown();

      assertThat(first.get(10, TimeUnit.SECONDS)).isEqualTo("r0");
      for (int i = 0; i < 3; i++) {
        assertThat(queued.get(i).get(10, TimeUnit.SECONDS)).isEqualTo("r" + (i + 1));
      }
      // The three queued callers arrive in any order; they are written as one batch.
      assertThat(batches).hasSize(2);
      assertThat(batches.get(0)).containsExactly(0);
      assertThat(batches.get(1)).containsExactlyInAnyOrder(1, 2, 3);
      assertThat(given.get(0).bounded()).isFalse();
      assertThat(given.get(1).nanosLeft())
          .isLessThanOrEqualTo(Duration.ofMinutes(30).toNanos())
          .isGreaterThan(Duration.ofMinutes(29).toNanos());
    } finally {
      threads.shutdownNow();
    }
  }

  @Test
  void aCallerPastItsDeadlineStillWritesWhenAWriterIsFree() {
    List<Deadline> given = new CopyOnWriteArrayList<>();
    Combiner<Integer, String> combiner = slowOnZeroWithDeadlines(given);

    assertThat(combiner.submit(5, Deadline.after(Duration.ZERO))).isEqualTo("r5");
    assertThat(given.get(0).passed()).isTrue();
  }

  private List<String> echo(List<Integer> items) {
    batches.add(List.copyOf(items));
    return items.stream().map(i -> "r" + i).toList();
  }

  private static void await(CountDownLatch latch) {
    try {
      assertThat(latch.await(10, TimeUnit.SECONDS)).isTrue();
    } catch (InterruptedException e) {
      throw new AssertionError(e);
    }
  }

  /** Spins until {@code count} threads are blocked in the combiner (bounded by ten seconds). */
  private static void awaitAllWaiting(List<Thread> threads, int count) {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (threads.size() < count
        || !threads.stream()
            .allMatch(
                t ->
                    t.getState() == Thread.State.WAITING
                        || t.getState() == Thread.State.TIMED_WAITING)) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("callers did not queue up");
      }
      Thread.onSpinWait();
    }
  }
}
