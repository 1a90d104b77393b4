package dev.saferetry.filestore;

import static dev.saferetry.filestore.Intents.CHARGES;
import static dev.saferetry.filestore.Intents.pending;
import static org.assertj.core.api.Assertions.assertThat;

import dev.saferetry.idempotency.IdempotencyKey;
import dev.saferetry.idempotency.IntentRecord;
import dev.saferetry.internal.filestore.LogStore;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Many threads, one store: one key per intent, and durable records that share fsyncs. */
class FileKeyStoreConcurrencyTest {
  private static final int THREADS = 16;

  @TempDir Path dir;

  @Test
  void sameIntentFromManyThreadsGetsOneKeyThatSurvivesReopen() throws Exception {
    Set<IdempotencyKey> keys = new HashSet<>();
    try (FileKeyStore store = FileKeyStore.open(dir)) {
      keys.addAll(runConcurrently(i -> store.begin(pending("order-1/charge")).record().key()));
      assertThat(keys).hasSize(1);
      assertThat(store.pending()).hasSize(1);
    }
    try (FileKeyStore store = FileKeyStore.open(dir)) {
      assertThat(store.find(CHARGES, "order-1/charge").orElseThrow().key()).isIn(keys);
    }
  }

  @Test
  void concurrentIntentsAreAllDurableAndShareFsyncs() throws Exception {
    // A window long enough that every thread appends while the first sync waits: deterministic.
    long window = Duration.ofMillis(300).toNanos();
    try (LogStore store = LogStore.open(dir, window)) {
      List<IntentRecord> begun = runConcurrently(i -> store.begin(pending("order-" + i)).record());
      assertThat(begun).extracting(IntentRecord::intentId).doesNotHaveDuplicates();
      assertThat(store.stats().appends()).isEqualTo(THREADS);
      assertThat(store.stats().syncs()).isLessThan(THREADS / 2);
    }
    try (FileKeyStore store = FileKeyStore.open(dir)) {
      assertThat(store.pending()).hasSize(THREADS);
    }
  }

  @Test
  void beginAndAbandonAreSyncedButCompletionsAreNot() throws Exception {
    try (LogStore store = LogStore.open(dir, 0)) {
      IntentRecord first = store.begin(pending("order-1")).record();
      long syncsAfterBegin = store.stats().syncs();
      assertThat(syncsAfterBegin).isEqualTo(1); // begin returned only after its fsync
      store.complete(Intents.succeeded(first, "ch_1"));
      assertThat(store.stats().syncs()).isEqualTo(syncsAfterBegin);
      store.abandon(CHARGES, "order-1");
      assertThat(store.stats().syncs()).isEqualTo(syncsAfterBegin + 1);
    }
  }

  @Test
  void compactionWhileOtherThreadsBeginLosesNothing() throws Exception {
    int perThread = 20;
    try (FileKeyStore store = FileKeyStore.open(dir)) {
      runConcurrently(
          t -> {
            for (int i = 0; i < perThread; i++) {
              if (t % 4 == 0) {
                store.purgeExpired(Intents.T0);
              } else {
                store.begin(pending("t" + t + "-" + i));
              }
            }
            return t;
          });
    }
    try (FileKeyStore store = FileKeyStore.open(dir)) {
      assertThat(store.pending()).hasSize(THREADS * 3 / 4 * perThread);
    }
  }

  private interface Task<T> {
    T run(int index) throws Exception;
  }

  private static <T> List<T> runConcurrently(Task<T> task) throws Exception {
    CyclicBarrier start = new CyclicBarrier(THREADS);
    ExecutorService pool = Executors.newFixedThreadPool(THREADS);
    try {
      List<Future<T>> futures = new ArrayList<>();
      for (int i = 0; i < THREADS; i++) {
        int index = i;
        futures.add(
            pool.submit(
                () -> {
                  start.await();
                  return task.run(index);
                }));
      }
      List<T> results = new ArrayList<>();
      for (Future<T> future : futures) {
        results.add(future.get());
      }
      return results;
    } finally {
      pool.shutdownNow();
    }
  }
}
