package dev.saferetry.filestore;

import static dev.saferetry.filestore.Intents.CHARGES;
import static dev.saferetry.filestore.Intents.DAY;
import static dev.saferetry.filestore.Intents.T0;
import static dev.saferetry.filestore.Intents.pending;
import static dev.saferetry.filestore.Intents.succeeded;
import static org.assertj.core.api.Assertions.assertThat;

import dev.saferetry.idempotency.IntentRecord;
import dev.saferetry.internal.filestore.LogStore;
import dev.saferetry.internal.filestore.StoreOptions;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** purgeExpired rewrites the log with only what still matters, atomically. */
class FileKeyStoreCompactionTest {
  @TempDir Path dir;

  @Test
  void compactionKeepsPendingAndLiveRecordsDropsExpiredOnesAndSurvivesReopen() throws Exception {
    Instant later = T0.plus(DAY).plusSeconds(1);
    IntentRecord oldPending = pending(CHARGES, "old-pending", T0);
    IntentRecord oldDone = pending(CHARGES, "old-done", T0);
    IntentRecord liveDone = pending(CHARGES, "live-done", later.minusSeconds(60));
    IntentRecord livePending = pending(CHARGES, "live-pending", later.minusSeconds(30));
    try (FileKeyStore store = FileKeyStore.open(dir)) {
      for (IntentRecord r : new IntentRecord[] {oldPending, oldDone, liveDone, livePending}) {
        store.begin(r);
      }
      store.complete(succeeded(oldDone, "ch_old"));
      store.complete(succeeded(liveDone, "ch_live"));

      assertThat(store.purgeExpired(later)).isEqualTo(1);

      assertThat(store.find(CHARGES, "old-done")).isEmpty();
      IntentRecord next = store.begin(pending(CHARGES, "after-compaction", later)).record();
      assertThat(store.find(CHARGES, "after-compaction")).contains(next);
    }
    try (FileKeyStore store = FileKeyStore.open(dir)) {
      assertThat(store.find(CHARGES, "old-done")).isEmpty();
      assertThat(store.find(CHARGES, "old-pending")).contains(oldPending);
      assertThat(store.find(CHARGES, "live-pending")).contains(livePending);
      assertThat(store.find(CHARGES, "live-done")).contains(succeeded(liveDone, "ch_live"));
      assertThat(store.find(CHARGES, "after-compaction")).isPresent();
    }
  }

  @Test
  void compactionDropsSupersededRecordsAndShrinksTheFile() throws Exception {
    try (FileKeyStore store = FileKeyStore.open(dir)) {
      for (int i = 0; i < 50; i++) {
        IntentRecord r = store.begin(pending("order-" + i)).record();
        store.complete(succeeded(r, "ch_" + i));
        store.abandon(CHARGES, "order-" + i);
      }
      IntentRecord kept = store.begin(pending("kept")).record();
      long before = StoreFileBytes.recordsEnd(dir);

      assertThat(store.purgeExpired(T0)).isZero();

      assertThat(StoreFileBytes.recordsEnd(dir)).isLessThan(before / 50);
      assertThat(store.pending()).containsExactly(kept);
    }
    try (var listing = Files.list(dir)) {
      assertThat(listing.map(p -> p.getFileName().toString()))
          .containsExactlyInAnyOrder(
              "intents.log", "intents.mark", "saferetry.lock", "saferetry.owner");
    }
  }

  @Test
  void largeLogOfMostlySupersededRecordsIsCompactedInTheBackgroundAfterOpen() throws Exception {
    IntentRecord first = pending("order-1");
    IntentRecord done = succeeded(first, "ch_1");
    try (LogStore store = LogStore.open(dir, new StoreOptions(0, false, Long.MAX_VALUE))) {
      store.begin(first);
      for (int i = 0; i < 20_000; i++) {
        store.complete(done); // e.g. an intent re-sent and replayed many times
      }
    }
    assertThat(StoreFileBytes.size(dir)).isGreaterThan(StoreOptions.AUTO_COMPACT_BYTES);

    try (LogStore store = LogStore.open(dir, 0)) {
      store.awaitBackgroundWork();
      assertThat(store.stats().compactions()).isEqualTo(1);
      assertThat(StoreFileBytes.recordsEnd(dir)).isLessThan(1024);
      assertThat(store.find(CHARGES, "order-1")).contains(done);
    }
    try (FileKeyStore store = FileKeyStore.open(dir)) {
      assertThat(store.find(CHARGES, "order-1")).contains(done);
    }
  }

  @Test
  void aLogThatGrowsMostlySupersededIsCompactedInTheBackgroundWhileInUse() throws Exception {
    IntentRecord first = pending("order-1");
    IntentRecord done = succeeded(first, "ch_1");
    try (LogStore store = LogStore.open(dir, 0)) {
      store.begin(first);
      for (int i = 0; i < 20_000; i++) {
        store.complete(done);
      }
      store.awaitBackgroundWork();
      assertThat(store.stats().compactions()).isPositive();
      assertThat(store.stats().logBytes()).isLessThan(StoreOptions.AUTO_COMPACT_BYTES);
      assertThat(store.find(CHARGES, "order-1")).contains(done);
    }
    try (FileKeyStore store = FileKeyStore.open(dir)) {
      assertThat(store.find(CHARGES, "order-1")).contains(done);
      assertThat(store.intentCount()).isEqualTo(1);
    }
  }

  @Test
  void leftoverCompactionFileFromACrashIsDiscardedAndTheLogKept() throws Exception {
    IntentRecord first = pending("order-1");
    try (FileKeyStore store = FileKeyStore.open(dir)) {
      store.begin(first);
    }
    Files.write(dir.resolve("intents.log.compact"), new byte[] {'S', 'R', 'K'});
    try (FileKeyStore store = FileKeyStore.open(dir)) {
      assertThat(store.pending()).containsExactly(first);
    }
    assertThat(dir.resolve("intents.log.compact")).doesNotExist();
  }
}
