package dev.saferetry.filestore;

import static dev.saferetry.filestore.Intents.CHARGES;
import static dev.saferetry.filestore.Intents.DAY;
import static dev.saferetry.filestore.Intents.T0;
import static org.assertj.core.api.Assertions.assertThat;

import dev.saferetry.idempotency.IntentRecord;
import dev.saferetry.idempotency.IntentState;
import dev.saferetry.idempotency.KeyStore;
import dev.saferetry.internal.filestore.LogStore;
import dev.saferetry.internal.filestore.StoreOptions;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Purges and background compactions while other threads begin, complete, replay and abandon
 * intents: afterwards, and after a reopen, the store holds exactly what a model of the calls says,
 * and exactly the expired records were dropped.
 */
class FileKeyStoreCompactionRaceTest {
  private static final int WORKERS = 4;
  private static final int OPERATIONS = 150;
  private static final int MAX_OPERATIONS = 20 * OPERATIONS;
  private static final int PURGES = 10;
  private static final int BACKGROUND_COMPACTIONS = 3;
  private static final int EXPIRED = 200;

  @TempDir Path dir;

  /** What one worker's own intents should be: absent (abandoned), or this record. */
  private final Map<String, Optional<IntentRecord>> model = new ConcurrentHashMap<>();

  @Test
  void compactionsRacingCallersLoseNothingAndDropOnlyTheExpired() throws Exception {
    StoreOptions options = new StoreOptions(0, true, 16 * 1024); // compact early and often
    AtomicInteger dropped = new AtomicInteger();
    int compactions;
    try (LogStore store = LogStore.open(dir, options)) {
      for (int i = 0; i < EXPIRED; i++) { // completed, and expired a day before the purges' instant
        IntentRecord old = Intents.pending(CHARGES, "old-" + i, T0.minus(DAY.multipliedBy(2)));
        store.begin(old);
        store.complete(Intents.succeeded(old, "ch_old_" + i));
      }
      CyclicBarrier start = new CyclicBarrier(WORKERS + 1);
      ExecutorService pool = Executors.newFixedThreadPool(WORKERS + 1);
      try {
        List<Future<?>> running = new ArrayList<>();
        for (int w = 0; w < WORKERS; w++) {
          int worker = w;
          running.add(pool.submit(() -> work(store, worker, start)));
        }
        running.add(
            pool.submit(
                () -> {
                  start.await();
                  for (int i = 0; i < PURGES; i++) {
                    dropped.addAndGet(store.purgeExpired(T0));
                  }
                  return null;
                }));
        for (Future<?> f : running) {
          f.get();
        }
      } finally {
        pool.shutdownNow();
      }
      store.awaitBackgroundWork();
      compactions = (int) store.stats().compactions();
      assertMatchesTheModel(store);
    }
    assertThat(dropped).hasValue(EXPIRED);
    assertThat(compactions).isGreaterThanOrEqualTo(PURGES + BACKGROUND_COMPACTIONS);
    try (FileKeyStore reopened = FileKeyStore.open(dir)) {
      assertMatchesTheModel(reopened);
    }
  }

  /**
   * Random calls on the worker's own intents, each recorded in the model once it returned, until
   * the purges and a few background compactions ran alongside (bounded).
   */
  private Void work(LogStore store, int worker, CyclicBarrier start) throws Exception {
    Random random = new Random(worker);
    start.await();
    for (int op = 0;
        op < MAX_OPERATIONS
            && (op < OPERATIONS || store.stats().compactions() < PURGES + BACKGROUND_COMPACTIONS);
        op++) {
      String id = "w" + worker + "-" + random.nextInt(30);
      Optional<IntentRecord> current = model.getOrDefault(id, Optional.empty());
      int choice = random.nextInt(10);
      if (current.isEmpty()) {
        IntentRecord begun = store.begin(Intents.pending(CHARGES, id, T0)).record();
        model.put(id, Optional.of(begun));
      } else if (choice < 5) {
        IntentRecord done =
            current.get().state() == IntentState.PENDING
                ? Intents.succeeded(current.get(), "ch_" + id + "_" + op)
                : current.get(); // a replay: completed again, unchanged
        store.complete(done);
        model.put(id, Optional.of(done));
      } else if (choice < 8) {
        assertThat(store.begin(Intents.pending(CHARGES, id, T0)).record()).isEqualTo(current.get());
      } else {
        assertThat(store.abandon(CHARGES, id)).isTrue();
        model.put(id, Optional.empty());
      }
    }
    return null;
  }

  private void assertMatchesTheModel(KeyStore store) {
    model.forEach((id, expected) -> assertThat(store.find(CHARGES, id)).as(id).isEqualTo(expected));
    for (int i = 0; i < EXPIRED; i++) {
      assertThat(store.find(CHARGES, "old-" + i)).isEmpty();
    }
    assertThat(store.pending())
        .containsExactlyInAnyOrderElementsOf(
            model.values().stream()
                .flatMap(Optional::stream)
                .filter(r -> r.state() == IntentState.PENDING)
                .toList());
  }
}
